import { Button } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import type { SaveUtils } from '../../lib/use-save';
import { formatDate, formatTime } from '../../ui/format';

/** A campaign's 'When' cell: the scheduled or sent time in the church's time zone. */
export function campaignWhen(when: string | null | undefined, timeZone: string): string {
  return when ? `${formatDate(when, timeZone)} ${formatTime(when, timeZone)}` : '—';
}

/** The `useSave` options of the Send and Delete row actions (both channels): their toasts, then the list refreshed. */
export function campaignRowSaves(invalidate: (utils: SaveUtils) => Promise<unknown>, sentText?: string) {
  return {
    send: {
      success: sentText ? (['Campaign sent successfully', sentText] as const) : 'Campaign sent successfully',
      errorTitle: 'Failed to send campaign',
      invalidate,
    },
    delete: { success: 'Campaign deleted', errorTitle: 'Error', errorPrefix: 'Failed to delete campaign', invalidate },
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
