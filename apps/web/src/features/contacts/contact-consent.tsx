import { Group, Paper, Stack, Switch, Text } from '@mantine/core';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatDate, formatTime } from '../../ui/format';
import { fullName, type Contact } from './labels';

export function Consent({ contact }: { contact: Contact }) {
  const utils = trpc.useUtils();
  const history = trpc.contacts.consentHistory.useQuery({ id: contact.id });
  const update = useSave(trpc.contacts.updateConsent, {
    success: (c) => [
      'Consent updated',
      `${fullName(c)}: email ${c.consent.email.status}, SMS ${c.consent.sms.status}.`,
    ],
    errorTitle: 'Error updating contact',
    onSuccess: async (c) => {
      utils.contacts.get.setData({ id: c.id }, c);
      await Promise.all([history.refetch(), utils.contacts.find.invalidate()]);
    },
  });
  const row = (channel: 'email' | 'sms', label: string) => {
    const state = contact.consent[channel];
    return (
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={0}>
          <Switch
            label={`${label}: ${state.status === 'subscribed' ? 'Subscribed' : 'Unsubscribed'}`}
            checked={state.status === 'subscribed'}
            disabled={update.isPending}
            onChange={(e) =>
              update.mutate({
                id: contact.id,
                channel,
                status: e.currentTarget.checked ? 'subscribed' : 'unsubscribed',
              })
            }
          />
          {state.changedAt ? (
            <Text size="xs" c="dimmed" ml={52}>
              Changed {formatDate(state.changedAt)} at {formatTime(state.changedAt)} by {state.source}
            </Text>
          ) : null}
        </Stack>
      </Group>
    );
  };
  return (
    <Paper withBorder p="sm">
      <Text fw={600} size="sm" mb="xs">
        Consent
      </Text>
      <Stack gap="xs">
        {row('email', 'Email')}
        {row('sms', 'SMS')}
        {history.data && history.data.length > 0 ? (
          <Text size="xs" c="dimmed">
            History: {history.data.map((e) => `${formatDate(e.at)} ${e.channel} ${e.status} (${e.source})`).join(' · ')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
