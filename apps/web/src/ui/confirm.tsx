import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

/** The one destructive confirmation: the spec's words, a red confirm button, Cancel. */
export function confirmDestructive(o: { title: string; text: ReactNode; confirm: string; onConfirm: () => void }) {
  modals.openConfirmModal({
    title: o.title,
    children: <Text size="sm">{o.text}</Text>,
    labels: { confirm: o.confirm, cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    closeButtonProps: { 'aria-label': 'Close' },
    onConfirm: o.onConfirm,
  });
}
