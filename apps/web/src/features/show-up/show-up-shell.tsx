import { Anchor, AppShell, Box, Button, Center, Container, Group, Loader, Text } from '@mantine/core';
import { IconHeartHandshake } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { lazyScreen } from '../../shell/lazy-screen';
import { useSession } from '../../shell/session';
import { useRememberSource } from './source';

// The staff shell is for signed-in staff only: a visitor's first load of a project does without it.
const AppLayout = lazyScreen(() => import('../../shell/app-layout'), 'AppLayout');

/**
 * Show Up's public pages: inside the app for signed-in staff, a plain public frame for visitors
 * and donors (who have no account).
 */
export function ShowUpShell() {
  const session = useSession();
  const location = useLocation();
  useRememberSource();
  // Once known, a background re-check of the session never swaps the page for a spinner.
  const [settled, setSettled] = useState<{ user: typeof session.user } | null>(null);
  if (!session.isLoading && settled?.user !== session.user) setSettled({ user: session.user });
  const user = settled ? settled.user : null;
  if (!settled) {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (user) {
    return (
      <Suspense
        fallback={
          <Center h="100vh" aria-busy="true">
            <Loader aria-label="Loading" />
          </Center>
        }
      >
        <AppLayout />
      </Suspense>
    );
  }
  return (
    <AppShell header={{ height: 60 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/show-up" underline="never" c="inherit">
            <Group gap={8} wrap="nowrap">
              <IconHeartHandshake size={24} color="var(--mantine-color-indigo-8)" aria-hidden />
              <Text fw={700}>Show Up</Text>
            </Group>
          </Anchor>
          <Button component={Link} to="/auth" state={{ from: location.pathname }} variant="light" size="sm">
            Sign in
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="xl" px={0}>
          <Box component="main">
            <Outlet />
          </Box>
        </Container>
      </AppShell.Main>
    </AppShell>
  );
}
