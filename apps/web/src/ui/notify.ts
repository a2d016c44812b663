import { notifications } from '@mantine/notifications';

/** Green success notice with the spec's title and text. */
export function notifySuccess(title: string, message?: string) {
  notifications.show({
    title,
    message: message ?? '',
    color: 'green',
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}

/** Red (destructive) failure notice. */
export function notifyError(title: string, message?: string) {
  notifications.show({
    title,
    message: message ?? '',
    color: 'red',
    closeButtonProps: { 'aria-label': 'Close notification' },
  });
}
