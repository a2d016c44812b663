import { notifications } from '@mantine/notifications';
import { statusColor, type StatusKind } from './status-color';

/**
 * One notice at a time (spec): the newest replaces the one showing at once, queue and all, so a
 * second 'URL Copied' is not held back behind the first, and a success clears the error before it.
 */
function showOnly(kind: StatusKind, title: string, message?: string) {
  notifications.clean();
  notifications.show({
    title,
    message: message ?? '',
    color: statusColor(kind),
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

/** Green success notice with the spec's title and text. */
export function notifySuccess(title: string, message?: string) {
  showOnly('success', title, message);
}

/** Yellow notice: the action worked, but what it was for still waits ('Not verified yet': DNS can take an hour). */
export function notifyWaiting(title: string, message?: string) {
  showOnly('waiting', title, message);
}

/** Red (destructive) failure notice. Screens show it through `lib/use-save.ts` (`useSave`, `showFailure`), which words its text. */
export function notifyError(title: string, message?: string) {
  showOnly('failure', title, message);
}
