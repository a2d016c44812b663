import { notifications } from '@mantine/notifications';

/**
 * One notice at a time (spec): the newest replaces the one showing at once, queue and all, so a
 * second 'URL Copied' is not held back behind the first, and a success clears the error before it.
 */
function showOnly(color: 'green' | 'red', title: string, message?: string) {
  notifications.clean();
  notifications.show({
    title,
    message: message ?? '',
    color,
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

/** Green success notice with the spec's title and text. */
export function notifySuccess(title: string, message?: string) {
  showOnly('green', title, message);
}

/** Red (destructive) failure notice. Screens show it through `lib/use-save.ts` (`useSave`, `showFailure`), which words its text. */
export function notifyError(title: string, message?: string) {
  showOnly('red', title, message);
}
