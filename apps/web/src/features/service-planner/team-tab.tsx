import { Badge, Button, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { type TeamMember } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { usePhoneFormatter } from '../../lib/phone';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { DataTable, RowActionsMenu } from '../../ui/data-table';
import { PLANNER_STALE_MS } from './planner-cache';
import { MemberModal } from './member-modal';
import { PositionsCard } from './positions-card';
import { ServingSettingsCard } from './serving-settings-card';

export function TeamTab() {
  const members = trpc.servicePlanner.members.list.useQuery({}, { staleTime: PLANNER_STALE_MS });
  const [editing, setEditing] = useState<TeamMember | 'new' | null>(null);
  const phone = usePhoneFormatter();
  const del = useSave(trpc.servicePlanner.members.delete, {
    success: 'Team member deleted',
    errorTitle: 'Failed to delete team member',
    invalidate: (utils) => utils.servicePlanner.invalidate(),
  });
  const remove = (m: TeamMember) =>
    confirmDestructive({
      title: 'Delete team member',
      text: `Delete ${m.name}? They are removed from every plan they are scheduled on.`,
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: m.id }),
    });
  const actions = (m: TeamMember) => (
    <RowActionsMenu
      label={`Actions for ${m.name}`}
      items={[
        { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => setEditing(m) },
        { label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => remove(m) },
      ]}
    />
  );
  const positionsOf = (m: TeamMember) => (
    <Group gap={4}>
      {m.positions.map((p) => (
        <Badge key={p.id} size="sm" variant="light">
          {p.name}
        </Badge>
      ))}
    </Group>
  );
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          <Group justify="flex-end">
            <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
              Add Member
            </Button>
          </Group>
          {members.isLoading ? (
            <Skeleton height={120} />
          ) : !members.data?.length ? (
            <EmptyState
              icon={<IconUsers size={24} />}
              title="No team members yet"
              description="Add the people who serve, and the positions they can fill."
            />
          ) : (
            <DataTable
              label="Team members"
              rows={members.data}
              rowKey={(m) => m.id}
              minWidth={600}
              stickyHeader
              actionsHeader="hidden"
              actionsTd={{ ta: 'right' }}
              actions={actions}
              columns={[
                {
                  header: 'Name',
                  card: 'title',
                  cell: (m) => (
                    <Text size="sm" fw={600}>
                      {m.name}
                    </Text>
                  ),
                  note: (m) =>
                    m.blockouts.length ? `${m.blockouts.length} blockout${m.blockouts.length === 1 ? '' : 's'}` : null,
                },
                { header: 'Email', cell: (m) => m.email },
                { header: 'Phone', cell: (m) => phone({ phone: m.phone, phoneE164: null }) },
                { header: 'Positions', cell: (m) => (m.positions.length ? positionsOf(m) : null) },
                {
                  header: 'Status',
                  cell: (m) => (
                    <Badge variant="light" color={m.isActive ? 'green' : 'gray'}>
                      {m.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  ),
                },
              ]}
            />
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack>
          <PositionsCard />
          <ServingSettingsCard />
        </Stack>
      </Grid.Col>
      {editing ? (
        <MemberModal member={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Grid>
  );
}
