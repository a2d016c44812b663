import { Button, Group } from '@mantine/core';
import type { ReactNode } from 'react';

/** A form's buttons at its foot: Cancel, then the submit button (busy while the save runs). */
export function FormActions({
  onCancel,
  submit,
  saving,
}: {
  onCancel: () => void;
  submit: ReactNode;
  saving: boolean;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel}>
        Cancel
      </Button>
      <Button type="submit" loading={saving}>
        {submit}
      </Button>
    </Group>
  );
}
