import { Badge, Button, Code, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { ForDeveloper } from '../../ui/for-developer';
import { statusColor } from '../../ui/status-color';

const STATUS = {
  not_connected: { label: 'Not connected', kind: 'neutral' },
  pending: { label: 'Pending', kind: 'waiting' },
  ready: { label: 'Ready', kind: 'success' },
} as const;

/** Settings → Giving: the church's own Stripe account (Stripe Connect), when the platform uses it. */
export function GivingSettings() {
  const status = trpc.showUp.givingStatus.useQuery();
  const utils = trpc.useUtils();
  const [params] = useSearchParams();
  const connect = useSave(trpc.showUp.givingConnect, {
    errorTitle: 'Could not start Stripe onboarding',
    onSuccess: ({ url }) => window.location.assign(url),
  });
  const refresh = useSave(trpc.showUp.givingRefresh, {
    errorTitle: 'Could not check the Stripe account',
    onSuccess: (data) => utils.showUp.givingStatus.setData(undefined, data),
  });
  const back = params.get('giving');
  const { mutate: refreshNow } = refresh;
  useEffect(() => {
    if (back === 'return' || back === 'refresh') refreshNow();
  }, [back, refreshNow]);

  return (
    <Paper withBorder p="lg" maw={720} mt="lg">
      <Title order={2} size="h4" mb="xs">
        Giving
      </Title>
      {status.isLoading || !status.data ? (
        <Skeleton h={60} />
      ) : status.data.mode === 'disabled' ? (
        <>
          <Text size="sm">
            Online giving is not turned on for Lampstand yet. Ask whoever runs Lampstand for your church to turn it on;
            then you can connect your church&apos;s own account here.
          </Text>
          <ForDeveloper>
            Stripe is not configured on this server: set <Code>STRIPE_SECRET_KEY</Code> and{' '}
            <Code>STRIPE_WEBHOOK_SECRET</Code>.
          </ForDeveloper>
        </>
      ) : !status.data.connect ? (
        <Text size="sm">
          Donations to your Show Up projects are processed by the platform's Stripe account
          {status.data.mode === 'demo' ? ' (demo mode: no card is charged)' : ''}.
        </Text>
      ) : (
        <Stack gap="sm">
          <Group gap="xs">
            <Text size="sm" fw={600}>
              Stripe account:
            </Text>
            <Badge color={statusColor(STATUS[status.data.status].kind)} variant="light">
              {STATUS[status.data.status].label}
            </Badge>
          </Group>
          <Text size="sm" c="dimmed">
            Donations to your projects are paid into your church's own Stripe account
            {status.data.platformFeePercent > 0 ? `, less a ${status.data.platformFeePercent}% platform fee` : ''}.
            {status.data.status !== 'ready'
              ? ' Until it is ready, Donate Now says that online giving is not set up yet.'
              : ''}
          </Text>
          <Group>
            {status.data.status !== 'ready' ? (
              <Button
                onClick={() => connect.mutate()}
                loading={connect.isPending}
                rightSection={<IconExternalLink size={16} />}
              >
                {status.data.status === 'pending' ? 'Continue Stripe setup' : 'Connect Stripe account'}
              </Button>
            ) : null}
            {status.data.status !== 'not_connected' ? (
              <Button variant="default" onClick={() => refresh.mutate()} loading={refresh.isPending}>
                Check status
              </Button>
            ) : null}
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
