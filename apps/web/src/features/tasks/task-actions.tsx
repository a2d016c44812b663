import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconCheck, IconRotate, IconUserShare } from '@tabler/icons-react';
import { useState } from 'react';
import type { z } from 'zod';
import type { taskOutputSchema } from '@lampstand/api/schemas/journeys';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { fullName } from '../contacts/labels';

export type Task = z.infer<typeof taskOutputSchema>;

const ME = 'me';

/** Done (or open again) and reassign, for one task: the Tasks page and the dashboard's card. */
export function useTaskUpdate() {
  return useSave(trpc.tasks.update, {
    success: (t, input) =>
      input.status === 'done'
        ? ['Task done', t.title]
        : input.status === 'open'
          ? ['Task opened again', t.title]
          : ['Task reassigned', `${t.title} is for ${t.assignee.name}.`],
    errorTitle: 'Failed to update task',
    invalidate: (utils) => utils.tasks.list.invalidate(),
  });
}

export function TaskActions({ task, onReassign }: { task: Task; onReassign: () => void }) {
  const update = useTaskUpdate();
  return (
    <Group gap="xs" wrap="wrap">
      {task.status === 'open' ? (
        <Button
          size="xs"
          variant="light"
          color="green"
          leftSection={<IconCheck size={16} />}
          loading={update.isPending}
          onClick={() => update.mutate({ id: task.id, status: 'done' })}
          aria-label={`Mark ${task.title} done`}
        >
          Done
        </Button>
      ) : (
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRotate size={16} />}
          loading={update.isPending}
          onClick={() => update.mutate({ id: task.id, status: 'open' })}
          aria-label={`Open ${task.title} again`}
        >
          Open again
        </Button>
      )}
      <Button
        size="xs"
        variant="default"
        leftSection={<IconUserShare size={16} />}
        onClick={onReassign}
        aria-label={`Reassign ${task.title}`}
      >
        Reassign
      </Button>
    </Group>
  );
}

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
