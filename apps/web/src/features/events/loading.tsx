import { Alert, Anchor, Group, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

/** A list's rows while they load, or its failure with Retry; null once loaded. */
export function ListState({
  query,
  what,
  rows = 3,
}: {
  query: { isLoading: boolean; error: unknown; refetch: () => unknown };
  what: string;
  rows?: number;
}) {
  if (query.isLoading)
    return (
      <Stack gap="xs">
        {Array.from({ length: rows }, (_, i) => (
          <Skeleton key={i} h={48} />
        ))}
      </Stack>
    );
  if (query.error)
    return (
      <Alert color="red" title="Error">
        There was an error loading {what}.{' '}
        <Anchor component="button" onClick={() => void query.refetch()}>
          Retry
        </Anchor>
      </Alert>
    );
  return null;
}

/** The link back up (to the list, or to the event). */
export function BackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={16} /> {children}
      </Group>
    </Anchor>
  );
}

/** An event that is not there (another church's, or deleted). */
export function EventNotFound({ back }: { back?: React.ReactNode }) {
  return (
    <Stack>
      {back}
      <Alert color="red" title="Event not found">
        This event does not exist or was deleted.
      </Alert>
    </Stack>
  );
}
