import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { fullName } from '../contacts/full-name';
import type { Task } from './task-actions';

const ME = 'me';

/** The church's service staff with an email, and the account itself, as a Select's options. */
export function useAssigneeOptions() {
  const staff = trpc.contacts.find.useQuery({ tab: 'staff', page: 1, pageSize: 200 });
  return [
    { value: ME, label: 'Me (the church account)' },
    ...(staff.data?.items ?? [])
      .filter((c) => c.email)
      .map((c) => ({ value: String(c.id), label: `${fullName(c)} (${c.email})` })),
  ];
}

export function ReassignDialog({ task, onClose }: { task: Task; onClose: () => void }) {
  const options = useAssigneeOptions();
  const [to, setTo] = useState<string>(task.assignee.contactId ? String(task.assignee.contactId) : ME);
  const update = useSave(trpc.tasks.update, {
    success: (t) => ['Task reassigned', `${t.title} is for ${t.assignee.name}. They get an email with it.`],
    errorTitle: 'Failed to reassign task',
    invalidate: (utils) => utils.tasks.list.invalidate(),
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={`Reassign ${task.title}`} size="md">
      <Stack>
        <Text size="sm">Now for {task.assignee.name}.</Text>
        <Select
          label="Assign to"
          data={options}
          value={to}
          onChange={(v) => v && setTo(v)}
          allowDeselect={false}
          searchable
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            loading={update.isPending}
            onClick={() => update.mutate({ id: task.id, assigneeContactId: to === ME ? null : Number(to) })}
          >
            Reassign
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
