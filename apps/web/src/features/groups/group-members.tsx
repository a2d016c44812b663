import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Menu,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowsRightLeft, IconDots, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { GroupMember } from '@lampstand/api/schemas/groups-people';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable, type Column } from '../../ui/data-table';
import { formatDate, formatNumber } from '../../ui/format';
import type { GroupDetail } from './group-form';
import { ContactsPicker, type PickedContact } from './leader-picker';

const refresh = (u: SaveUtils) => [
  u.groups.members.invalidate(),
  u.groups.get.invalidate(),
  u.groups.list.invalidate(),
];

function AddMembersModal({ group, onClose }: { group: GroupDetail; onClose: () => void }) {
  const [people, setPeople] = useState<PickedContact[]>([]);
  const [role, setRole] = useState<'member' | 'leader'>('member');
  const [error, setError] = useState<string | undefined>();
  const add = useSave(trpc.groups.addMembers, {
    success: (_r, input) => `Added ${formatNumber(input.contactIds.length)} to ${group.name}`,
    errorTitle: 'Failed to add members',
    invalidate: refresh,
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={`Add people to ${group.name}`}>
      <Stack>
        <ContactsPicker
          label="People"
          value={people}
          onChange={(p) => {
            setPeople(p);
            setError(undefined);
          }}
          error={error}
        />
        <Select
          label="Role"
          data={[
            { value: 'member', label: 'Member' },
            { value: 'leader', label: 'Leader' },
          ]}
          value={role}
          allowDeselect={false}
          onChange={(v) => setRole(v === 'leader' ? 'leader' : 'member')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={add.isPending}
            onClick={() =>
              people.length === 0
                ? setError('Choose at least one contact')
                : add.mutate({ id: group.id, contactIds: people.map((p) => p.contactId), role })
            }
          >
            Add to group
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function MoveModal({
  group,
  people,
  initialMode,
  onClose,
}: {
  group: GroupDetail;
  people: GroupMember[];
  initialMode: 'move' | 'copy';
  onClose: () => void;
}) {
  const [mode, setMode] = useState<'move' | 'copy'>(initialMode);
  const [to, setTo] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const groups = trpc.groups.list.useQuery({ limit: 1000 });
  const options =
    groups.data && 'groups' in groups.data
      ? groups.data.groups.filter((x) => x.id !== group.id).map((x) => ({ value: String(x.id), label: x.name }))
      : [];
  const move = useSave(trpc.groups.moveMembers, {
    success: (r, input) =>
      input.mode === 'move'
        ? `Moved ${formatNumber(r.added)} to ${destination}`
        : `Copied ${formatNumber(r.added)} to ${destination}`,
    errorTitle: mode === 'move' ? 'Failed to move members' : 'Failed to copy members',
    invalidate: refresh,
    onSuccess: onClose,
  });
  const destination = options.find((o) => o.value === to)?.label ?? 'the group';
  const names = people.map((p) => p.name).join(', ');
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Move or copy ${formatNumber(people.length)} ${people.length === 1 ? 'person' : 'people'}`}
    >
      <Stack>
        <Text size="sm">{names}</Text>
        <SegmentedControl
          aria-label="Move or copy"
          value={mode}
          onChange={(v) => setMode(v === 'copy' ? 'copy' : 'move')}
          data={[
            { value: 'move', label: 'Move (leave this group)' },
            { value: 'copy', label: 'Copy (stay in both)' },
          ]}
        />
        <Select
          label="To group"
          placeholder="Choose a group"
          searchable
          data={options}
          value={to}
          error={error}
          onChange={(v) => {
            setTo(v);
            setError(undefined);
          }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={move.isPending}
            onClick={() =>
              to === null
                ? setError('Choose the group to move them to')
                : move.mutate({ id: group.id, toGroupId: Number(to), contactIds: people.map((p) => p.contactId), mode })
            }
          >
            {mode === 'move' ? 'Move' : 'Copy'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The group's members: role, joined date, attendance; add, remove, change role, move or copy. */
export function GroupMembers({ group }: { group: GroupDetail }) {
  const members = trpc.groups.members.useQuery({ id: group.id });
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
      card: 'hidden',
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
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h4">
          Members ({formatNumber(rows.length)})
        </Title>
        <Group gap="xs">
          {chosen.length > 0 ? (
            <Button
              variant="default"
              leftSection={<IconArrowsRightLeft size={18} />}
              onClick={() => setMoving({ people: chosen, mode: 'move' })}
            >
              Move or copy {formatNumber(chosen.length)}
            </Button>
          ) : null}
          <Button leftSection={<IconUserPlus size={18} />} onClick={() => setAdding(true)}>
            Add members
          </Button>
        </Group>
      </Group>
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
