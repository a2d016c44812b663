import { Anchor, Badge, Button, Card, Group, SegmentedControl, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { EnrollmentOutput, JourneyOutput } from '@lampstand/api/schemas/journeys';
import { trpc } from '../../lib/trpc';
import { useChurchTimeZone } from '../../lib/time-zone';
import { DataTable } from '../../ui/data-table';
import { formatDate, formatTime } from '../../ui/format';

const STATUS = {
  active: { label: 'In the journey', color: 'indigo' },
  completed: { label: 'Completed', color: 'green' },
  converted: { label: 'Converted', color: 'teal' },
  exited: { label: 'Exited', color: 'gray' },
} as const;
type Status = keyof typeof STATUS;

/**
 * Why someone is not moving yet, in the church's time: 'Waiting for quiet hours to end (8:00 AM)';
 * a day other than today is named ('…until Dec 3, 2026 9:00 AM').
 */
function waitingWords(waiting: EnrollmentOutput['waiting'], timeZone: string): string | null {
  if (!waiting) return null;
  const today = formatDate(new Date(), timeZone) === formatDate(waiting.until, timeZone);
  const tomorrow = formatDate(new Date(Date.now() + 86_400_000), timeZone) === formatDate(waiting.until, timeZone);
  const time = formatTime(waiting.until, timeZone);
  const when = today || tomorrow ? time : `${formatDate(waiting.until, timeZone)} ${time}`;
  switch (waiting.reason) {
    case 'quiet_hours':
      return `Waiting for quiet hours to end (${when})`;
    case 'wait':
      return `Waiting until ${today ? time : tomorrow ? `tomorrow ${time}` : when}`;
    case 'daily_limit':
      return `Waiting for the daily sending limit (tries again ${today ? time : when})`;
  }
}

/** Who is in the journey, newest first: where each person is, or how they left. */
export function PeoplePanel({ journey }: { journey: JourneyOutput }) {
  const timeZone = useChurchTimeZone();
  const [status, setStatus] = useState<Status | 'all'>('all');
  const [limit, setLimit] = useState(25);
  const page = trpc.journeys.enrollments.useQuery({
    id: journey.id,
    status: status === 'all' ? undefined : status,
    limit,
  });
  const numbers = new Map(journey.steps.map((s, i) => [s.id, i + 1]));
  const rows = page.data?.enrollments ?? [];
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={2} size="h5">
          People
        </Title>
        <SegmentedControl
          size="xs"
          aria-label="Show people"
          value={status}
          onChange={(v) => setStatus(v)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'active', label: 'In it' },
            { value: 'completed', label: 'Completed' },
            { value: 'converted', label: 'Converted' },
            { value: 'exited', label: 'Exited' },
          ]}
        />
      </Group>
      <DataTable
        label="People in this journey"
        rows={rows}
        rowKey={(e) => e.id}
        empty={page.isLoading ? 'Loading…' : 'No one yet.'}
        columns={[
          {
            header: 'Person',
            card: 'title',
            cell: (e) =>
              e.contact ? (
                <Anchor component={Link} to={`/contacts/detail/${e.contact.id}?tab=activity`} size="sm">
                  {e.contact.name}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed" span>
                  {e.test ? 'Your own address (a test)' : 'A deleted contact'}
                </Text>
              ),
            note: (e) => (e.test ? 'Test' : null),
          },
          {
            header: 'Status',
            cell: (e) => (
              <Badge color={STATUS[e.status].color} variant="light">
                {STATUS[e.status].label}
              </Badge>
            ),
            note: (e) => e.exitReason,
          },
          {
            header: 'Where',
            cell: (e) =>
              e.status === 'active' && e.currentStepId
                ? `Step ${numbers.get(e.currentStepId) ?? '?'}${e.version !== journey.version ? ` (version ${e.version})` : ''}`
                : '',
            note: (e) => waitingWords(e.waiting, timeZone),
          },
          { header: 'Entered', cell: (e) => formatDate(e.enteredAt, timeZone) },
        ]}
      />
      {page.data?.next ? (
        <Group justify="center" mt="sm">
          <Button
            variant="default"
            size="xs"
            onClick={() => setLimit((l) => Math.min(200, l + 25))}
            disabled={limit >= 200}
          >
            Show more
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}
