import { Alert, Button, Chip, Group, Loader, Stack, Text, Timeline } from '@mantine/core';
import { useState } from 'react';
import type { EventOut } from '@lampstand/api/schemas/events';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useChurchTimeZone } from '../../lib/time-zone';
import { formatDate, formatTime } from '../../ui/format';
import { ACTIVITY_KINDS, actorWords, eventWords } from './activity-words';

const PAGE = 25;

/** A person's story: their events newest first, in plain words, filtered by kind, a page at a time. */
export function ContactActivity({ contactId }: { contactId: number }) {
  const [kinds, setKinds] = useState<string[]>([]);
  const zone = useChurchTimeZone();
  const activity = trpc.events.forContact.useInfiniteQuery(
    { contactId, kinds: kinds.length ? kinds : undefined, limit: PAGE },
    { getNextPageParam: (last) => last.next ?? undefined },
  );
  const events: EventOut[] = activity.data?.pages.flatMap((p) => p.events) ?? [];
  return (
    <Stack gap="md">
      <Chip.Group multiple value={kinds} onChange={setKinds}>
        <Group gap={6} aria-label="Show only">
          {ACTIVITY_KINDS.map((k) => (
            <Chip key={k.value} value={k.value} size="xs" variant="outline">
              {k.label}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      {activity.isLoading ? (
        <Loader size="sm" aria-label="Loading activity" />
      ) : activity.error ? (
        <Alert color="red" title="Could not load activity">
          {errorMessage(activity.error)}
        </Alert>
      ) : events.length === 0 ? (
        <Text size="sm" c="dimmed">
          {kinds.length ? 'No activity of these kinds yet' : 'No activity yet'}
        </Text>
      ) : (
        <Timeline bulletSize={12} lineWidth={2} aria-label="Activity" role="list">
          {events.map((e) => {
            const actor = actorWords(e);
            return (
              <Timeline.Item key={e.id} role="listitem">
                <Text size="sm">{eventWords(e)}</Text>
                <Text size="xs" c="gray.7">
                  {formatDate(e.occurredAt, zone)} {formatTime(e.occurredAt, zone)}
                  {actor ? ` · ${actor}` : ''}
                </Text>
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
      {activity.hasNextPage ? (
        <Group>
          <Button
            variant="default"
            size="xs"
            loading={activity.isFetchingNextPage}
            onClick={() => void activity.fetchNextPage()}
          >
            Show older activity
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
