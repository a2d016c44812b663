import { Alert, Anchor, Badge, Button, Group, SegmentedControl, Select } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { DataTable } from '../../ui/data-table';
import { formatDate } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { ReassignDialog, useAssigneeOptions } from './reassign-dialog';
import { TaskActions, type Task } from './task-actions';
import { DueDate, TaskPerson } from './task-labels';

const EVERYONE = 'everyone';

/** Follow-up tasks from journeys: open or done, for anyone or one staff member; done and reassign. */
export function TasksPage() {
  const [status, setStatus] = useState<'open' | 'done'>('open');
  const [assignee, setAssignee] = useState<string>(EVERYONE);
  const [reassigning, setReassigning] = useState<Task | null>(null);
  const options = useAssigneeOptions();
  const [limit, setLimit] = useState(50);
  const tasks = trpc.tasks.list.useQuery({
    status,
    assignee: assignee === EVERYONE ? undefined : assignee === 'me' ? 'me' : Number(assignee),
    limit,
  });
  const rows = tasks.data?.tasks ?? [];
  return (
    <>
      <PageHeader title="Tasks" description="Follow-ups that journeys ask staff to do: a call, a visit, a note." />
      <Group mb="md" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Show tasks"
          value={status}
          onChange={(v) => setStatus(v)}
          data={[
            { value: 'open', label: 'Open' },
            { value: 'done', label: 'Done' },
          ]}
        />
        <Select
          label="Assigned to"
          data={[{ value: EVERYONE, label: 'Everyone' }, ...options]}
          value={assignee}
          onChange={(v) => v && setAssignee(v)}
          allowDeselect={false}
          w={280}
        />
      </Group>
      {tasks.error ? (
        <Alert color="red" title="Error">
          There was an error loading tasks. Please try again later.
        </Alert>
      ) : (
        <DataTable
          label="Tasks"
          rows={rows}
          rowKey={(t) => t.id}
          empty={tasks.isLoading ? 'Loading…' : status === 'open' ? 'No open tasks. Well done!' : 'No done tasks yet.'}
          columns={[
            {
              header: 'Task',
              card: 'title',
              td: { fw: 500 },
              cell: (t) => t.title,
              note: (t) => t.notes,
            },
            { header: 'Person', cell: (t) => <TaskPerson task={t} /> },
            { header: 'Assigned to', cell: (t) => t.assignee.name },
            {
              header: 'Due',
              cell: (t) =>
                t.status === 'done' ? (
                  <Badge color="green" variant="light">
                    Done {t.doneAt ? formatDate(t.doneAt) : ''}
                  </Badge>
                ) : (
                  <DueDate task={t} />
                ),
            },
            {
              header: 'Journey',
              cell: (t) =>
                t.journey ? (
                  <Anchor component={Link} to={`/journeys/${t.journey.id}`} size="sm">
                    {t.journey.name}
                  </Anchor>
                ) : null,
            },
          ]}
          actions={(t) => <TaskActions task={t} onReassign={() => setReassigning(t)} />}
        />
      )}
      {tasks.data?.next ? (
        <Group justify="center" mt="md">
          <Button variant="default" onClick={() => setLimit((l) => Math.min(200, l + 50))} disabled={limit >= 200}>
            Show more
          </Button>
        </Group>
      ) : null}
      {reassigning ? <ReassignDialog task={reassigning} onClose={() => setReassigning(null)} /> : null}
    </>
  );
}
