// Loaded after the first paint (app.tsx imports it lazily): the toasts' container, its transitions
// and styles are not needed to show the first screen. `notifications.show` (ui/notify.ts) only
// writes to Mantine's store, which this container reads when it mounts.
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

export function NotificationsHost() {
  // Bottom-right: clear of the header, the impersonation banner's Stop button, and the close
  // button and title of every sheet and dialog (all at the top).
  return <Notifications limit={1} autoClose={5000} position="bottom-right" />;
}
