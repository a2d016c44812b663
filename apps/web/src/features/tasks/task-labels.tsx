import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatDate } from '../../ui/format';
import type { Task } from './task-actions';

/** A task's due day ('Nov 28, 2026'), red when it has passed. */
export function DueDate({ task }: { task: Task }) {
  const today = new Date().toISOString().slice(0, 10);
  const late = task.status === 'open' && task.dueOn < today;
  return (
    <Text size="sm" c={late ? 'red.8' : undefined} fw={late ? 600 : undefined} span>
      {formatDate(task.dueOn)}
      {late ? ' (overdue)' : ''}
    </Text>
  );
}

/** The person a task is about, linked to their page. */
export function TaskPerson({ task }: { task: Task }) {
  return task.contact ? (
    <Anchor component={Link} to={`/contacts/detail/${task.contact.id}`} size="sm">
      {task.contact.name}
    </Anchor>
  ) : (
    <Text size="sm" c="dimmed" span>
      A deleted contact
    </Text>
  );
}
