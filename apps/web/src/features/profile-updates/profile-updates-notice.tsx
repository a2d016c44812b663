import { Alert, Button, Group, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';

/** The dashboard's count: shown only while updates wait. */
export function ProfileUpdatesNotice() {
  const count = trpc.profileUpdates.count.useQuery();
  const n = count.data?.pending ?? 0;
  if (n === 0) return null;
  return (
    <Alert color="blue" title="Profile updates">
      <Group justify="space-between">
        <Text size="sm">{n === 1 ? '1 member proposed new details.' : `${n} members proposed new details.`}</Text>
        <Button component={Link} to="/profile-updates" size="xs" variant="light">
          Review {n} {n === 1 ? 'update' : 'updates'}
        </Button>
      </Group>
    </Alert>
  );
}
