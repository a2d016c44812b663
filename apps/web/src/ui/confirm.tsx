import { Button, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

/** The one destructive confirmation: the spec's words, a red confirm button, Cancel. */
export function confirmDestructive(o: { title: string; text: ReactNode; confirm: string; onConfirm: () => void }) {
  modals.openConfirmModal({
    title: o.title,
    children: <Text size="sm">{o.text}</Text>,
    labels: { confirm: o.confirm, cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm: o.onConfirm,
  });
}

/** A row's small red Delete button that asks first (`confirmDestructive`), named after the row. */
export function DeleteRowButton(o: { name: string; text: ReactNode; confirm: string; onConfirm: () => void }) {
  return (
    <Button
      size="xs"
      variant="subtle"
      color="red"
      aria-label={`Delete ${o.name}`}
      onClick={() =>
        confirmDestructive({ title: `Delete ${o.name}?`, text: o.text, confirm: o.confirm, onConfirm: o.onConfirm })
      }
    >
      Delete
    </Button>
  );
}

/**
 * Ask before throwing typed work away (closing a dirty sheet, Cancel in a wizard). `Keep editing`
 * is the safe default; `Discard` is red.
 */
export function confirmDiscard(o: { what: string; onDiscard: () => void }) {
  modals.openConfirmModal({
    title: 'Discard unsaved changes?',
    children: <Text size="sm">You have typed changes to {o.what} that are not saved. They will be lost.</Text>,
    labels: { confirm: 'Discard', cancel: 'Keep editing' },
    confirmProps: { color: 'red' },
    onConfirm: o.onDiscard,
  });
}

/** Ask before an action that reaches people (sending, publishing): the confirm button is the primary colour. */
export function confirmAction(o: { title: string; text: ReactNode; confirm: string; onConfirm: () => void }) {
  modals.openConfirmModal({
    title: o.title,
    children: <Text size="sm">{o.text}</Text>,
    labels: { confirm: o.confirm, cancel: 'Cancel' },
    onConfirm: o.onConfirm,
  });
}
