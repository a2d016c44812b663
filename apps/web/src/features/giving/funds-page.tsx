import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Menu,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { IconArchive, IconDots, IconPencil, IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { Fund } from '@lampstand/api/schemas/giving';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { formatNumber } from '../../ui/format';
import { FundFormModal } from './fund-form-modal';
import { GivingTabs } from './giving-tabs';

/** Giving → Funds: the church's funds, added, changed, archived (a fund with gifts is never deleted). */
export function FundsPage() {
  const [status, setStatus] = useState<'active' | 'archived' | 'all'>('active');
  const funds = trpc.funds.list.useQuery({ status });
  const [editing, setEditing] = useState<Fund | 'new' | null>(null);
  const invalidate = { invalidate: (utils: ReturnType<typeof trpc.useUtils>) => utils.funds.list.invalidate() };
  const update = useSave(trpc.funds.update, {
    ...invalidate,
    errorTitle: 'Error',
    errorPrefix: 'Failed to save fund',
    success: (f) => (f.status === 'archived' ? `${f.name} archived` : `${f.name} is active again`),
  });
  const del = useSave(trpc.funds.delete, {
    ...invalidate,
    errorTitle: 'Error',
    errorPrefix: 'Failed to delete fund',
    success: (r) => (r.outcome === 'archived' ? 'The fund has gifts: archived instead' : 'Fund deleted'),
  });
  const rows = funds.data ?? [];
  return (
    <>
      <PageHeader
        title="Giving"
        description="Funds donors give to, recurring gifts and the gifts received."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
            Add Fund
          </Button>
        }
      />
      <GivingTabs />
      <Stack>
        <SegmentedControl
          aria-label="Show funds"
          w="fit-content"
          value={status}
          onChange={setStatus}
          data={[
            { value: 'active', label: 'Active' },
            { value: 'archived', label: 'Archived' },
            { value: 'all', label: 'All' },
          ]}
        />
        <Paper withBorder p="md">
          {funds.isLoading ? (
            <Skeleton height={120} />
          ) : funds.isError ? (
            <Alert color="red" title="Funds could not be loaded">
              <Button size="xs" variant="light" color="red" onClick={() => void funds.refetch()}>
                Retry
              </Button>
            </Alert>
          ) : (
            <DataTable
              label="Funds"
              rows={rows}
              rowKey={(f) => f.id}
              minWidth={560}
              empty={<Text c="dimmed">No funds here.</Text>}
              columns={[
                { header: 'Fund', card: 'title', cell: (f) => f.name, note: (f) => f.description },
                {
                  header: 'Shown to',
                  cell: (f) => (
                    <Badge variant="light" color={f.isPublic ? 'blue' : 'gray'}>
                      {f.isPublic ? 'Public' : 'Staff only'}
                    </Badge>
                  ),
                },
                {
                  header: 'Status',
                  cell: (f) => (
                    <Badge variant="light" color={f.status === 'active' ? 'green' : 'gray'}>
                      {f.status === 'active' ? 'Active' : 'Archived'}
                    </Badge>
                  ),
                },
                { header: 'Gifts', cell: (f) => formatNumber(f.giftCount) },
              ]}
              actionsHeader="hidden"
              actions={(f) => (
                <Group justify="flex-end">
                  <Menu position="bottom-end" shadow="md">
                    <Menu.Target>
                      <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${f.name}`}>
                        <IconDots size={18} />
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(f)}>
                        Edit
                      </Menu.Item>
                      {f.name === 'General' ? null : f.status === 'active' ? (
                        <Menu.Item
                          leftSection={<IconArchive size={16} />}
                          onClick={() => update.mutate({ id: f.id, status: 'archived' })}
                        >
                          Archive
                        </Menu.Item>
                      ) : (
                        <Menu.Item
                          leftSection={<IconRestore size={16} />}
                          onClick={() => update.mutate({ id: f.id, status: 'active' })}
                        >
                          Make active
                        </Menu.Item>
                      )}
                      {f.name === 'General' ? null : (
                        <Menu.Item
                          color="red"
                          leftSection={<IconTrash size={16} />}
                          onClick={() =>
                            confirmDestructive({
                              title: `Delete ${f.name}?`,
                              text:
                                f.giftCount > 0
                                  ? 'This fund has gifts, so it is archived instead: its gifts keep it, donors no longer see it.'
                                  : 'This deletes the fund. This action cannot be undone.',
                              confirm: f.giftCount > 0 ? 'Archive' : 'Delete',
                              onConfirm: () => del.mutate({ id: f.id }),
                            })
                          }
                        >
                          Delete
                        </Menu.Item>
                      )}
                    </Menu.Dropdown>
                  </Menu>
                </Group>
              )}
            />
          )}
        </Paper>
      </Stack>
      {editing ? (
        <FundFormModal fund={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}
