import { ActionIcon, Center, Loader, Menu } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { ICON_SIZE } from '../ui/theme';
import classes from './app-layout.module.css';

// The list and its 'Mark all as read' load when the bell is first opened: the shell is on the staff
// app's first load.
const BellItems = lazy(() => import('./bell-items').then((m) => ({ default: m.BellItems })));

/** The header's bell: what waits for this person, with a count of what they have not read. */
export function Bell({ unread }: { unread: number }) {
  const [opened, setOpened] = useState(false);
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" zIndex={300}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} className={classes.bell}>
          <IconBell size={ICON_SIZE} />
          {unread > 0 ? (
            <span className={classes.bellCount} aria-hidden>
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown className={classes.bellMenu}>
        {opened ? (
          <Suspense
            fallback={
              <Center p="md">
                <Loader size="sm" aria-label="Loading notifications" />
              </Center>
            }
          >
            <BellItems />
          </Suspense>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
