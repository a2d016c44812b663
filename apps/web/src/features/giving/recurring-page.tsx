import { ActionIcon, Alert, Badge, Button, Group, Menu, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { IconDots, IconDownload, IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { FREQUENCY_LABELS, SCHEDULE_STATUSES } from '@lampstand/api/schemas/giving';
import { formatCents } from '@lampstand/api/shared/giving';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { formatDate } from '../../ui/format';
import { statusColor } from '../../ui/status-color';
import { GivingTabs } from './giving-tabs';

type Status = (typeof SCHEDULE_STATUSES)[number];
const STATUS_LABEL: Record<Status, string> = {
  pending: 'Card not saved',
  active: 'Active',
  paused: 'Paused',
  cancelled: 'Cancelled',
  failing: 'Failing',
};
const STATUS_COLOR: Record<Status, string> = {
  pending: statusColor('waiting'),
  active: statusColor('success'),
  paused: statusColor('neutral'),
  cancelled: statusColor('neutral'),
  failing: statusColor('failure'),
};

/** A month from today, as the pause's end. */
const aMonthOn = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

/** Giving → Recurring: every recurring gift, filtered by status and fund, with its CSV. */
export function RecurringPage() {
  const [status, setStatus] = useState<Status | null>(null);
  const [fundId, setFundId] = useState<string | null>(null);
  const filters = { ...(status ? { status } : {}), ...(fundId ? { fundId: Number(fundId) } : {}) };
  const schedules = trpc.giving.recurring.useQuery(filters);
  const funds = trpc.funds.list.useQuery({ status: 'all' });
  const update = useSave(trpc.giving.updateRecurring, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to change the recurring gift',
    success: (s) => `${s.donorName}'s gift is ${STATUS_LABEL[s.status].toLowerCase()}`,
    invalidate: (utils) => utils.giving.recurring.invalidate(),
  });
  const query = new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)])).toString();
  const rows = schedules.data ?? [];
  return (
    <>
      <PageHeader
        title="Giving"
        description="Funds donors give to, recurring gifts and the gifts received."
        action={
          <Button
            component="a"
            href={`/api/giving/recurring/export${query ? `?${query}` : ''}`}
            download
            variant="default"
            leftSection={<IconDownload size={18} />}
          >
            Export CSV
          </Button>
        }
      />
      <GivingTabs />
      <Stack>
        <Group wrap="wrap">
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            value={status}
            onChange={(v) => setStatus(v)}
            data={SCHEDULE_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
          />
          <Select
            label="Fund"
            placeholder="Any fund"
            clearable
            value={fundId}
            onChange={setFundId}
            data={(funds.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
          />
        </Group>
        <Paper withBorder p="md">
          {schedules.isLoading ? (
            <Skeleton height={120} />
          ) : schedules.isError ? (
            <Alert color="red" title="Recurring gifts could not be loaded">
              <Button size="xs" variant="light" color="red" onClick={() => void schedules.refetch()}>
                Retry
              </Button>
            </Alert>
          ) : (
            <DataTable
              label="Recurring gifts"
              rows={rows}
              rowKey={(s) => s.id}
              minWidth={720}
              empty={<Text c="dimmed">No recurring gifts here.</Text>}
              columns={[
                { header: 'Donor', card: 'title', cell: (s) => s.donorName, note: (s) => s.donorEmail },
                {
                  header: 'Amount',
                  cell: (s) => formatCents(s.amountCents + s.feeCents),
                  note: (s) => (s.feeCents ? `${formatCents(s.feeCents)} fees covered` : null),
                },
                { header: 'Frequency', cell: (s) => FREQUENCY_LABELS[s.frequency] },
                {
                  header: 'Funds',
                  cell: (s) => s.lines.map((l) => `${l.fundName} ${formatCents(l.amountCents)}`).join(', '),
                },
                {
                  header: 'Next',
                  cell: (s) =>
                    s.status === 'cancelled'
                      ? '—'
                      : s.status === 'paused' && s.pausedUntil
                        ? `Paused until ${formatDate(s.pausedUntil)}`
                        : formatDate(s.nextDate),
                },
                {
                  header: 'Status',
                  cell: (s) => (
                    <Badge variant="light" color={STATUS_COLOR[s.status]} title={s.lastFailure ?? undefined}>
                      {STATUS_LABEL[s.status]}
                    </Badge>
                  ),
                },
              ]}
              actionsHeader="hidden"
              actions={(s) =>
                s.status === 'cancelled' ? null : (
                  <Group justify="flex-end">
                    <Menu position="bottom-end" shadow="md">
                      <Menu.Target>
                        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${s.donorName}'s gift`}>
                          <IconDots size={18} />
                        </ActionIcon>
                      </Menu.Target>
                      <Menu.Dropdown>
                        {s.status === 'paused' ? (
                          <Menu.Item
                            leftSection={<IconPlayerPlay size={16} />}
                            onClick={() => update.mutate({ id: s.id, status: 'active' })}
                          >
                            Resume
                          </Menu.Item>
                        ) : s.status === 'active' || s.status === 'failing' ? (
                          <Menu.Item
                            leftSection={<IconPlayerPause size={16} />}
                            onClick={() => update.mutate({ id: s.id, status: 'paused', pausedUntil: aMonthOn() })}
                          >
                            Pause for a month
                          </Menu.Item>
                        ) : null}
                        <Menu.Item
                          color="red"
                          leftSection={<IconX size={16} />}
                          onClick={() =>
                            confirmDestructive({
                              title: `Cancel ${s.donorName}'s recurring gift?`,
                              text: 'No further gifts are charged. The donor can start a new one on your giving page.',
                              confirm: 'Cancel gift',
                              onConfirm: () => update.mutate({ id: s.id, status: 'cancelled' }),
                            })
                          }
                        >
                          Cancel
                        </Menu.Item>
                      </Menu.Dropdown>
                    </Menu>
                  </Group>
                )
              }
            />
          )}
        </Paper>
      </Stack>
    </>
  );
}
