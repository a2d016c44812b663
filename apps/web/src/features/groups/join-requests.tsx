import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatDate } from '../../ui/format';

/** Pending requests to join, each with Approve and Decline (shown when any wait). */
export function JoinRequests({ groupId, pending }: { groupId: number; pending: number }) {
  const requests = trpc.groups.requests.useQuery({ id: groupId }, { enabled: pending > 0 });
  const decide = useSave(trpc.groups.decideRequest, {
    success: (r, input) =>
      input.decision === 'approve' ? ['Request approved', `${r.name} is in the group.`] : 'Request declined',
    errorTitle: 'Failed to answer the request',
    invalidate: (u) => [
      u.groups.requests.invalidate(),
      u.groups.get.invalidate(),
      u.groups.members.invalidate(),
      u.groups.list.invalidate(),
    ],
  });
  if (pending === 0 || !requests.data?.length) return null;
  return (
    <Card withBorder padding="lg">
      <Title order={2} size="h4" mb="sm">
        Asking to join
      </Title>
      <Stack gap="sm">
        {requests.data.map((r) => (
          <Group key={r.id} justify="space-between" wrap="wrap" gap="sm">
            <div>
              <Text fw={600}>{r.name}</Text>
              <Text size="sm" c="dimmed">
                {[r.email, r.phone, `asked ${formatDate(r.createdAt)}`].filter(Boolean).join(' · ')}
              </Text>
              {r.note ? <Text size="sm">“{r.note}”</Text> : null}
            </div>
            <Group gap="xs">
              <Button
                size="xs"
                aria-label={`Approve ${r.name}`}
                loading={decide.isPending && decide.variables?.requestId === r.id}
                onClick={() => decide.mutate({ id: groupId, requestId: r.id, decision: 'approve' })}
              >
                Approve
              </Button>
              <Button
                size="xs"
                variant="default"
                aria-label={`Decline ${r.name}`}
                onClick={() => decide.mutate({ id: groupId, requestId: r.id, decision: 'decline' })}
              >
                Decline
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
