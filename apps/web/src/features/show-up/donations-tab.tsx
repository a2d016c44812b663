import { Alert, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { OwnerDonation } from '@lampstand/api/schemas/show-up';
import { trpc } from '../../lib/trpc';
import { DataTable } from '../../ui/data-table';
import { formatDate, formatUsd } from '../../ui/format';
import { statusColor } from '../../ui/status-color';

const STATUS_COLOR: Record<OwnerDonation['status'], string> = {
  pending: statusColor('waiting'),
  completed: statusColor('success'),
  failed: statusColor('failure'),
  refunded: statusColor('neutral'),
  disputed: statusColor('failure'),
};
const STATUS_LABEL: Record<OwnerDonation['status'], string> = {
  pending: 'Pending',
  completed: 'Completed',
  failed: 'Failed',
  refunded: 'Refunded',
  disputed: 'Disputed',
};

/** The owner's view: every gift, its status and where it came from, and the sum by source. */
export function OwnerDonations({ projectId }: { projectId: number }) {
  const report = trpc.showUp.ownerDonations.useQuery({ id: projectId }, { staleTime: 0 });
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
      ) : (
        <DataTable
          label="Donations"
          rows={donations}
          rowKey={(d) => d.id}
          minWidth={560}
          stickyHeader
          table={{ striped: true, highlightOnHover: false, verticalSpacing: undefined }}
          columns={[
            { header: 'Date', cell: (d) => formatDate(d.createdAt) },
            { header: 'Amount', cell: (d) => formatUsd(d.amount) },
            {
              header: 'Donor',
              card: 'title',
              cell: (d) => d.donorName,
              note: (d) => d.donorEmail,
            },
            {
              header: 'Status',
              cell: (d) => (
                <Badge color={STATUS_COLOR[d.status]} variant="light" title={d.failureReason ?? undefined}>
                  {STATUS_LABEL[d.status]}
                </Badge>
              ),
            },
            { header: 'Source', cell: (d) => d.source?.label ?? 'Direct' },
          ]}
        />
      )}
    </Stack>
  );
}
