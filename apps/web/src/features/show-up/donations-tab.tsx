import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import type { OwnerDonation } from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { formatDate, formatUsd } from '../../ui/format';

const STATUS_COLOR: Record<OwnerDonation['status'], string> = {
  pending: 'gray',
  completed: 'green',
  failed: 'red',
  refunded: 'orange',
};
const STATUS_LABEL: Record<OwnerDonation['status'], string> = {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  refunded: 'Refunded',
};

/** The owner's view: every gift, its status and where it came from, and the sum by source. */
export function OwnerDonations({ projectId }: { projectId: number }) {
  const report = trpc.showUp.ownerDonations.useQuery({ id: projectId }, { staleTime: 0 });
  const phone = useMediaQuery('(max-width: 48em)');
  if (report.isLoading) return <Skeleton height={160} />;
  if (report.isError || !report.data) {
    return (
      <Alert color="red" title="Donations could not be loaded">
        <Button size="xs" variant="light" color="red" onClick={() => void report.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  const { donations, sources, totalCompleted } = report.data;
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <Text>
          <strong>{formatUsd(totalCompleted)}</strong> received in{' '}
          {donations.filter((d) => d.status === 'completed').length} completed gifts
        </Text>
        <Button
          component="a"
          href={`/api/show-up/projects/${projectId}/donations/export`}
          download
          variant="default"
          leftSection={<IconDownload size={18} />}
        >
          Export CSV
        </Button>
      </Group>
      <Paper withBorder p="md">
        <Title order={3} size="h5" mb="xs">
          Where gifts came from
        </Title>
        {sources.length === 0 ? (
          <Text size="sm" c="dimmed">
            No completed gifts yet.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            {sources.map((s) => (
              <Group
                key={s.source ? `${s.source.kind}.${s.source.id}` : 'direct'}
                justify="space-between"
                wrap="nowrap"
              >
                <Text size="sm">{s.source?.label ?? 'Direct (no tracked link)'}</Text>
                <Text size="sm" fw={600}>
                  {formatUsd(s.total)} · {s.count} {s.count === 1 ? 'gift' : 'gifts'}
                </Text>
              </Group>
            ))}
          </SimpleGrid>
        )}
      </Paper>
      {donations.length === 0 ? (
        <Text c="dimmed">No donations yet.</Text>
      ) : phone ? (
        <Stack gap="xs">
          {donations.map((d) => (
            <Card key={d.id} withBorder padding="sm">
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600}>{d.donorName}</Text>
                <Text fw={600}>{formatUsd(d.amount)}</Text>
              </Group>
              <Group justify="space-between" mt={4}>
                <Text size="sm" c="dimmed">
                  {formatDate(d.createdAt)} · {d.source?.label ?? 'Direct'}
                </Text>
                <Badge color={STATUS_COLOR[d.status]} variant="light">
                  {STATUS_LABEL[d.status]}
                </Badge>
              </Group>
            </Card>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Amount</Table.Th>
                <Table.Th>Donor</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Source</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {donations.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{formatDate(d.createdAt)}</Table.Td>
                  <Table.Td>{formatUsd(d.amount)}</Table.Td>
                  <Table.Td>
                    {d.donorName}
                    {d.donorEmail ? (
                      <Text size="xs" c="dimmed">
                        {d.donorEmail}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={STATUS_COLOR[d.status]} variant="light" title={d.failureReason ?? undefined}>
                      {STATUS_LABEL[d.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{d.source?.label ?? 'Direct'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
