import { Alert, Button, Group, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { formatDate, formatTime } from './format';

/** Offers the draft `useFormDraft` kept from an earlier visit: restore it or discard it. */
export function DraftNotice(o: { savedAt: string; onRestore: () => void; onDiscard: () => void }) {
  return (
    <Alert color="indigo" icon={<IconDeviceFloppy size={18} />} title="Unsaved work found" mb="lg">
      <Text size="sm">
        Your unsaved changes from {formatDate(o.savedAt)} at {formatTime(o.savedAt)} were kept in this browser.
      </Text>
      <Group gap="xs" mt="xs">
        <Button size="xs" onClick={o.onRestore}>
          Restore
        </Button>
        <Button size="xs" variant="default" onClick={o.onDiscard}>
          Discard draft
        </Button>
      </Group>
    </Alert>
  );
}
