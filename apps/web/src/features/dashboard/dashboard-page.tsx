import { Text, Title } from '@mantine/core';
import { useSession } from '../../shell/session';

export function DashboardPage() {
  const { user } = useSession();
  return (
    <>
      <Title order={2}>Welcome back, {user?.churchName}!</Title>
      <Text c="dimmed" mt={4}>
        Let's grow your congregation with powerful marketing tools.
      </Text>
    </>
  );
}
