import { Button, Group } from '@mantine/core';
import { IconCheck, IconRotate, IconUserShare } from '@tabler/icons-react';
import type { z } from 'zod';
import type { taskOutputSchema } from '@lampstand/api/schemas/journeys';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';

export type Task = z.infer<typeof taskOutputSchema>;

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
