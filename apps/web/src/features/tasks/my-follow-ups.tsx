import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { TaskActions, type Task } from './task-actions';
import { DueDate, TaskPerson } from './task-labels';

// The dialog (a Modal and a searchable Select) loads when it is first opened: the dashboard is on
// the staff app's first load.
const ReassignDialog = lazy(() => import('./reassign-dialog').then((m) => ({ default: m.ReassignDialog })));

/** The dashboard's 'My follow-ups': the church account's open tasks, soonest first. */
export function MyFollowUps() {
  const tasks = trpc.tasks.list.useQuery({ status: 'open', assignee: 'me', limit: 5 });
  const [reassigning, setReassigning] = useState<Task | null>(null);
  const items = tasks.data?.tasks ?? [];
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4">
          My follow-ups
        </Title>
        <Button component={Link} to="/tasks" variant="subtle" size="xs">
          All tasks
        </Button>
      </Group>
      {tasks.isLoading ? (
        <Text size="sm" c="dimmed">
          Loading…
        </Text>
      ) : tasks.error ? (
        <Text size="sm" c="red.8">
          Your follow-ups could not be loaded.
        </Text>
      ) : items.length === 0 ? (
        <Text c="dimmed" size="sm" ta="center" py="md">
          Nothing to follow up. Journeys put their tasks here.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="My follow-ups">
          {items.map((t) => (
            <Group key={t.id} component="li" justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0, flex: '1 1 240px' }}>
                <Text size="sm" fw={500}>
                  {t.title}
                </Text>
                <Text size="xs" c="dimmed" span>
                  <TaskPerson task={t} /> · due <DueDate task={t} />
                </Text>
              </Stack>
              <TaskActions task={t} onReassign={() => setReassigning(t)} />
            </Group>
          ))}
        </Stack>
      )}
      {reassigning ? (
        <Suspense fallback={null}>
          <ReassignDialog task={reassigning} onClose={() => setReassigning(null)} />
        </Suspense>
      ) : null}
    </Paper>
  );
}
