import { Button } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { errorMessage } from '../../lib/errors';
import { formatDate, formatTime } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';

/** A campaign's 'When' cell: the scheduled or sent time in the church's time zone. */
export function campaignWhen(when: string | null | undefined, timeZone: string): string {
  return when ? `${formatDate(when, timeZone)} ${formatTime(when, timeZone)}` : '—';
}

/** The toasts of the Send and Delete row actions (both channels), then the list is refreshed. */
export function campaignRowToasts(refresh: () => Promise<unknown>, sentText?: string) {
  return {
    send: {
      onSuccess: async () => {
        notifySuccess('Campaign sent successfully', sentText);
        await refresh();
      },
      onError: (err: unknown) => notifyError('Failed to send campaign', errorMessage(err)),
    },
    delete: {
      onSuccess: async () => {
        notifySuccess('Campaign deleted');
        await refresh();
      },
      onError: (err: unknown) => notifyError('Error', `Failed to delete campaign: ${errorMessage(err)}`),
    },
  };
}

/** A draft's Send button (it asks first: `onClick` opens the confirmation). */
export function SendCampaignButton({
  name,
  loading,
  onClick,
}: {
  name: string;
  loading: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconSend size={14} />}
      loading={loading}
      onClick={onClick}
      aria-label={`Send ${name}`}
    >
      Send
    </Button>
  );
}
