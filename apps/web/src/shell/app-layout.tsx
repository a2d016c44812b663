import {
  ActionIcon,
  AppShell,
  Avatar,
  Burger,
  Button,
  Group,
  Menu,
  Overlay,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconHelpCircle, IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { ICON_SIZE } from '../ui/theme';
import { Bell } from './bell';
import { HeaderSearch } from './header-search';
import { useLogout, useSession, useStopImpersonating } from './session';
import { SidebarNav } from './sidebar-nav';
import { useWaitingCounts } from './waiting';
import classes from './app-layout.module.css';

// The guides' text loads when Help is first opened, not with the shell (on every first load).
const HelpDrawer = lazy(() => import('./help/help-drawer').then((m) => ({ default: m.HelpDrawer })));

export function AppLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { user } = useSession();
  const logout = useLogout();
  const stop = useStopImpersonating();
  const isMobile = useMediaQuery('(max-width: 48em)');
  const counts = useWaitingCounts();
  // Mounted on first opening (its guides load then) and kept, so it can close with its animation.
  const [help, setHelp] = useState<'never' | 'open' | 'closed'>('never');
  if (!user) return null;
  const impersonating = !!user._impersonatedBy;
  const initial = user.churchName.trim().charAt(0).toUpperCase() || '?';
  const roleLabel = user.role === 'admin' ? 'Administrator' : 'Church';

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
            />
            {!impersonating ? (
              <Text fw={800} size="lg" c="indigo" className={classes.logo}>
                Lampstand
              </Text>
            ) : null}
          </Group>
          <HeaderSearch />
          <Group gap="xs" wrap="nowrap">
            <Bell unread={counts?.bellUnread ?? 0} />
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Help" onClick={() => setHelp('open')}>
              <IconHelpCircle size={ICON_SIZE} />
            </ActionIcon>
            <Menu position="bottom-end" width={200} shadow="md">
              <Menu.Target>
                <UnstyledButton aria-label="Account menu" className={classes.accountButton}>
                  <Avatar color="indigo" radius="xl" size={34}>
                    {initial}
                  </Avatar>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>{user.churchName}</Menu.Label>
                <Menu.Item leftSection={<IconUser size={16} />} component={Link} to="/account">
                  Account
                </Menu.Item>
                <Menu.Item leftSection={<IconSettings size={16} />} component={Link} to="/settings">
                  Settings
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item leftSection={<IconLogout size={16} />} color="red" onClick={() => logout.mutate()}>
                  Logout
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation" className={classes.navbar}>
        <AppShell.Section>
          <Group gap="sm" p="xs" mb="sm" wrap="nowrap">
            <Avatar color="indigo" radius="md" size={40} aria-hidden>
              {initial}
            </Avatar>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fw={700} truncate="end" data-testid="sidebar-church-name">
                {user.churchName}
              </Text>
              <Text size="xs" c="dimmed">
                {roleLabel}
              </Text>
            </Stack>
          </Group>
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea} type="scroll">
          <SidebarNav admin={user.role === 'admin'} counts={counts} onNavigate={close} />
        </AppShell.Section>
        <AppShell.Section>
          <Button
            fullWidth
            variant="light"
            color="gray"
            leftSection={<IconLogout size={ICON_SIZE} />}
            onClick={() => logout.mutate()}
            disabled={logout.isPending}
          >
            {logout.isPending ? 'Logging out...' : 'Logout'}
          </Button>
        </AppShell.Section>
      </AppShell.Navbar>

      {opened && isMobile ? (
        <Overlay fixed zIndex={99} backgroundOpacity={0.4} onClick={close} data-testid="nav-backdrop" />
      ) : null}

      <AppShell.Main>
        {impersonating ? (
          <Group className={classes.banner} justify="center" gap="md" px="md" role="status">
            <Text size="sm" fw={600}>
              You are currently impersonating {user.churchName}
            </Text>
            <Button
              size="compact-sm"
              color="dark"
              variant="white"
              loading={stop.isPending}
              onClick={() => stop.mutate()}
            >
              Stop Impersonating
            </Button>
          </Group>
        ) : null}
        <Outlet />
      </AppShell.Main>
      {help !== 'never' ? (
        <Suspense fallback={null}>
          <HelpDrawer opened={help === 'open'} onClose={() => setHelp('closed')} />
        </Suspense>
      ) : null}
    </AppShell>
  );
}
