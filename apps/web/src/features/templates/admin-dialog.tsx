import { Modal, Stack } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

/** The admin's template and package dialogs: a 600 px modal (as the spec says) holding one form. */
export function AdminDialog({
  title,
  onClose,
  onSubmit,
  children,
}: {
  title: string;
  onClose: () => void;
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Modal opened onClose={onClose} title={title} size={600} centered>
      <form noValidate onSubmit={onSubmit}>
        <Stack>{children}</Stack>
      </form>
    </Modal>
  );
}
