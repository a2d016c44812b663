import { Box, NavLink, Text, VisuallyHidden } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import type { WaitingCounts } from '@lampstand/api/schemas/waiting';
import { ICON_SIZE } from '../ui/theme';
import { adminNav, churchNav, type NavGroup, type NavItem } from './nav';
import classes from './app-layout.module.css';

function NavItemLink({
  item,
  active,
  count,
  onNavigate,
}: {
  item: NavItem;
  active: boolean;
  count: number;
  onNavigate: () => void;
}) {
  const shown = item.badge && count > 0;
  return (
    <NavLink
      component={Link}
      to={item.to}
      label={item.label}
      leftSection={<item.icon size={ICON_SIZE} stroke={1.6} />}
      rightSection={
        shown ? (
          // The badge's number is read with what it counts: 'Conversations, 3 unread'.
          <>
            <VisuallyHidden>, </VisuallyHidden>
            <span className={classes.navCount}>{count > 99 ? '99+' : count}</span>
            <VisuallyHidden> {item.badge!.words}</VisuallyHidden>
          </>
        ) : undefined
      }
      active={active}
      onClick={onNavigate}
      variant="filled"
      className={classes.navLink}
    />
  );
}

function NavSection({
  group,
  counts,
  onNavigate,
}: {
  group: NavGroup;
  counts: WaitingCounts | undefined;
  onNavigate: () => void;
}) {
  const location = useLocation();
  return (
    <Box component="nav" aria-label={group.title} mb="sm">
      {group.untitled ? null : (
        <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
          {group.title}
        </Text>
      )}
      {group.items.map((item) => (
        <NavItemLink
          key={item.to}
          item={item}
          active={item.isActive(location)}
          count={item.badge ? (counts?.[item.badge.count] ?? 0) : 0}
          onNavigate={onNavigate}
        />
      ))}
    </Box>
  );
}

/** The sidebar's links, by group, with a badge where something waits. */
export function SidebarNav({
  admin,
  counts,
  onNavigate,
}: {
  admin: boolean;
  counts: WaitingCounts | undefined;
  onNavigate: () => void;
}) {
  return (
    <>
      {churchNav.map((g) => (
        <NavSection key={g.title} group={g} counts={counts} onNavigate={onNavigate} />
      ))}
      {admin ? <NavSection group={adminNav} counts={counts} onNavigate={onNavigate} /> : null}
    </>
  );
}
