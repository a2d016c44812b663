import { Button, Group, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { GroupMember } from '@lampstand/api/schemas/groups-people';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';
import type { GroupDetail } from './group-form';
import { ContactsPicker, type PickedContact } from './leader-picker';

// The members' dialogs: adding people, and moving or copying some to another group.

export const refresh = (u: SaveUtils) => [
  u.groups.members.invalidate(),
  u.groups.get.invalidate(),
  u.groups.list.invalidate(),
];

export function AddMembersModal({ group, onClose }: { group: GroupDetail; onClose: () => void }) {
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

export function MoveModal({
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
