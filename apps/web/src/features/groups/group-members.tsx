import { ActionIcon, Anchor, Badge, Button, Card, Checkbox, Group, Menu, Paper, Text, Title } from '@mantine/core';
import { IconArrowsRightLeft, IconDots, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { GroupMember } from '@lampstand/api/schemas/groups-people';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable, useWide, type Column } from '../../ui/data-table';
import { formatDate, formatNumber } from '../../ui/format';
import type { GroupDetail } from './group-form';
import { AddMembersModal, MoveModal, refresh } from './group-member-dialogs';
import classes from './group-members.module.css';

/** The group's members: role, joined date, attendance; add, remove, change role, move or copy. */
export function GroupMembers({ group }: { group: GroupDetail }) {
  const members = trpc.groups.members.useQuery({ id: group.id });
  const wide = useWide();
  const [selected, setSelected] = useState<number[]>([]);
  const [adding, setAdding] = useState(false);
  const [moving, setMoving] = useState<{ people: GroupMember[]; mode: 'move' | 'copy' } | null>(null);
  const role = useSave(trpc.groups.addMembers, {
    success: 'Role changed',
    errorTitle: 'Failed to change role',
    invalidate: refresh,
  });
  const remove = useSave(trpc.groups.removeMember, {
    success: 'Removed from the group',
    errorTitle: 'Failed to remove member',
    invalidate: refresh,
  });
  const rows = members.data ?? [];
  const toggle = (id: number) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const columns: Column<GroupMember>[] = [
    {
      header: 'Select',
      card: 'start',
      cell: (m) => (
        <Checkbox
          aria-label={`Select ${m.name}`}
          checked={selected.includes(m.contactId)}
          onChange={() => toggle(m.contactId)}
        />
      ),
      th: { w: 40 },
    },
    {
      header: 'Name',
      card: 'title',
      cell: (m) => (
        <Anchor component={Link} to={`/contacts/detail/${m.contactId}`} fw={600}>
          {m.name}
        </Anchor>
      ),
      note: (m) => m.email ?? m.phone,
    },
    {
      header: 'Role',
      cell: (m) => (
        <Badge variant="light" color={m.role === 'leader' ? 'indigo' : 'gray'}>
          {m.role === 'leader' ? 'Leader' : 'Member'}
        </Badge>
      ),
    },
    { header: 'Joined', cell: (m) => formatDate(m.joinedOn) },
    {
      header: 'Came to',
      cell: (m) => `${formatNumber(m.attended)} of ${formatNumber(m.meetings)} meeting${m.meetings === 1 ? '' : 's'}`,
    },
  ];
  const chosen = rows.filter((m) => selected.includes(m.contactId));
  const moveButton = (
    <Button
      variant={wide ? 'default' : 'filled'}
      leftSection={<IconArrowsRightLeft size={18} />}
      onClick={() => setMoving({ people: chosen, mode: 'move' })}
    >
      Move or copy {formatNumber(chosen.length)}
    </Button>
  );
  return (
    <Card withBorder padding="lg" className={classes.members}>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          Members ({formatNumber(rows.length)})
        </Title>
        <Group gap="xs">
          {wide && chosen.length > 0 ? moveButton : null}
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => setAdding(true)}>
            Add members
          </Button>
        </Group>
      </Group>
      {!wide && rows.length > 1 ? (
        <Checkbox
          mb="sm"
          label="Select all"
          checked={chosen.length === rows.length}
          indeterminate={chosen.length > 0 && chosen.length < rows.length}
          onChange={() => setSelected(chosen.length === rows.length ? [] : rows.map((m) => m.contactId))}
        />
      ) : null}
      <DataTable
        label="Members"
        rows={rows}
        rowKey={(m) => m.contactId}
        columns={columns}
        actionsHeader="hidden"
        empty={
          <Text c="dimmed" size="sm">
            {members.isLoading ? 'Loading…' : 'Nobody is in this group yet: add its members.'}
          </Text>
        }
        actions={(m) => (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={`Actions for ${m.name}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                onClick={() =>
                  role.mutate({
                    id: group.id,
                    contactIds: [m.contactId],
                    role: m.role === 'leader' ? 'member' : 'leader',
                  })
                }
              >
                {m.role === 'leader' ? 'Make member' : 'Make leader'}
              </Menu.Item>
              <Menu.Item onClick={() => setMoving({ people: [m], mode: 'move' })}>Move to another group</Menu.Item>
              <Menu.Item onClick={() => setMoving({ people: [m], mode: 'copy' })}>Copy to another group</Menu.Item>
              <Menu.Item
                color="red"
                onClick={() =>
                  confirmDestructive({
                    title: 'Remove from group?',
                    text: `Remove ${m.name} from ${group.name}? Their attendance history is kept.`,
                    confirm: 'Remove',
                    onConfirm: () => remove.mutate({ id: group.id, contactId: m.contactId }),
                  })
                }
              >
                Remove from group
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
      />
      {/* On a phone the chosen people's actions stay in view at the foot of the screen while ticking. */}
      {!wide && chosen.length > 0 ? (
        <Paper withBorder shadow="md" p="xs" mt="sm" className={classes.selectionBar}>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              {formatNumber(chosen.length)} selected
            </Text>
            <Group gap="xs">
              <Button variant="default" onClick={() => setSelected([])}>
                Clear
              </Button>
              {moveButton}
            </Group>
          </Group>
        </Paper>
      ) : null}
      {adding ? <AddMembersModal group={group} onClose={() => setAdding(false)} /> : null}
      {moving ? (
        <MoveModal
          group={group}
          people={moving.people}
          initialMode={moving.mode}
          onClose={() => {
            setMoving(null);
            setSelected([]);
          }}
        />
      ) : null}
    </Card>
  );
}
