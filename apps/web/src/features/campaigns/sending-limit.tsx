import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconFlame, IconShieldCheck } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { type EmailWarmup, type SendingLimit } from '@lampstand/api/schemas/account';
import { dailyLimitReason, emailWarmupSentence } from '@lampstand/api/shared/account';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatDate, formatNumber, formatTime } from '../../ui/format';

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

/** With the platform's email warm-up, in a new church's first week: today's number, and what waits. */
function EmailWarmupNotice({ warmup: w }: { warmup: EmailWarmup }) {
  const next = `${formatDate(w.nextDayAt)} ${formatTime(w.nextDayAt)}`;
  return (
    <Alert
      color="blue"
      mb="md"
      icon={<IconFlame size={18} />}
      title={`Warming up: at most ${formatNumber(w.limit)} emails today`}
    >
      <Text size="sm">
        {emailWarmupSentence(w)} A new church&apos;s email starts small and doubles each day for its first {w.days}{' '}
        days, so that mail providers come to trust it. Emails past today&apos;s number wait and go out from {next}
        {w.nextDayLimit === null ? ', with no warm-up limit.' : `, when up to ${formatNumber(w.nextDayLimit)} can go.`}
      </Text>
    </Alert>
  );
}

/**
 * On the campaign screens, before anyone clicks Send: the church's daily limit, why it exists, how
 * much of it is left, and how to lift it; on the email screens, the email warm-up of a new church.
 * Nothing shows when the church has no limit.
 */
export function SendingLimitNotice({ channel = 'email' }: { channel?: 'email' | 'sms' }) {
  const status = trpc.account.status.useQuery();
  const l = status.data;
  const warmup = channel === 'email' && l?.emailWarmup ? <EmailWarmupNotice warmup={l.emailWarmup} /> : null;
  if (!l || l.limit === null) return warmup;
  return (
    <>
      {warmup}
      <DailyLimitNotice l={l} />
    </>
  );
}

function DailyLimitNotice({ l }: { l: SendingLimit }) {
  const send = useSendVerificationEmail();
  const unverified = l.source === 'unverified';
  return (
    <Alert
      color="yellow"
      // Dark title and icon on the pale yellow: the yellow of a light Alert fails AA contrast.
      styles={{ title: { color: 'var(--mantine-color-dark-7)' }, icon: { color: 'var(--mantine-color-dark-7)' } }}
      mb="md"
      icon={<IconShieldCheck size={18} />}
      title={`Campaigns reach at most ${formatNumber(l.limit ?? 0)} people a day`}
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
