// Loaded after the first paint (app.tsx imports it lazily): the toasts' container, its transitions
// and styles are not needed to show the first screen. `notifications.show` (ui/notify.ts) only
// writes to Mantine's store, which this container reads when it mounts.
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { useMediaQuery } from '@mantine/hooks';
import classes from './notifications-host.module.css';

export function NotificationsHost() {
  // Where no action is (notifications-host.module.css): at the top on phones and tablets, where the
  // navigation is a drawer (the shell's breakpoint, 48em); beside the sidebar at the bottom left wider.
  const drawerNavigation = useMediaQuery('(max-width: 48em)', true, { getInitialValueInEffect: false });
  return (
    <Notifications
      limit={1}
      autoClose={5000}
      position={drawerNavigation ? 'top-center' : 'bottom-left'}
      classNames={{ root: classes.root }}
    />
  );
}
