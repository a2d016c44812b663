import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, Navigate, useLocation } from 'react-router-dom';
import { useSession } from './session';

/** Signed-in routes: a spinner while the session loads, /auth for visitors. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { user, isLoading } = useSession();
  const location = useLocation();
  if (isLoading) {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (!user) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  return <>{children}</>;
}

/** Admin routes: a signed-in non-admin sees Access Denied (the server refuses them too). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (user?.role !== 'admin') return <AccessDenied />;
  return <>{children}</>;
}

export function AccessDenied({ text = "You don't have permission to access this page." }: { text?: string }) {
  return (
    <Center py={80}>
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={56} radius="xl" color="red" variant="light">
          <IconLock size={28} />
        </ThemeIcon>
        <Title order={2}>Access Denied</Title>
        <Text c="dimmed">{text}</Text>
        <Button component={Link} to="/" variant="light">
          Return to Dashboard
        </Button>
      </Stack>
    </Center>
  );
}
