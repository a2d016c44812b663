import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { dailyLimitReason, type SendingLimit } from '@lampstand/api/schemas/account';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';

/** '40 sent in the last 24 hours, 60 left.' */
export const dailyUsage = (l: SendingLimit) =>
  `${formatNumber(l.usedLast24h)} sent in the last 24 hours, ${formatNumber(l.remaining ?? 0)} left.`;

/** Send (again) the link that verifies the account email. */
export function useSendVerificationEmail() {
  return useSave(trpc.account.sendVerificationEmail, {
    success: (sent) => ['Verification email sent', sent.message],
    errorTitle: 'Failed to send verification email',
    invalidate: (utils) => utils.account.status.invalidate(),
  });
}

/**
 * On the campaign screens, before anyone clicks Send: the church's daily limit, why it exists, how
 * much of it is left, and how to lift it. Nothing shows when the church has no limit.
 */
export function SendingLimitNotice() {
  const status = trpc.account.status.useQuery();
  const send = useSendVerificationEmail();
  const l = status.data;
  if (!l || l.limit === null) return null;
  const unverified = l.source === 'unverified';
  return (
    <Alert
      color="yellow"
      // Dark title and icon on the pale yellow: the yellow of a light Alert fails AA contrast.
      styles={{ title: { color: 'var(--mantine-color-dark-7)' }, icon: { color: 'var(--mantine-color-dark-7)' } }}
      mb="md"
      icon={<IconShieldCheck size={18} />}
      title={`Campaigns reach at most ${formatNumber(l.limit)} people a day`}
    >
      <Stack gap="xs">
        <Text size="sm">
          {dailyLimitReason(l)}{' '}
          {unverified
            ? `New accounts start with this limit so that nobody can use Lampstand to send spam. Verify ${l.email} to lift it.`
            : 'Please contact the administrator to change it.'}
        </Text>
        <Text size="sm">Email and SMS together: {dailyUsage(l)}</Text>
        {unverified ? (
          <Group gap="sm">
            <Button size="xs" variant="white" loading={send.isPending} onClick={() => send.mutate()}>
              Send verification email
            </Button>
            <Anchor component={Link} to="/account" size="sm">
              Open the Account page
            </Anchor>
          </Group>
        ) : null}
      </Stack>
    </Alert>
  );
}
