import { ActionIcon, Alert, Paper, Text, Title } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { useChurchTimeZone } from '../../lib/time-zone';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { formatDate } from '../../ui/format';

type Suppression = RouterOutputs['suppressions']['list'][number];

/**
 * Settings → Suppressed addresses: addresses that bounced or complained, which no
 * email of the church reaches; removing one asks first, and the removal is kept in the log.
 */
export function SuppressionsSection() {
  const timeZone = useChurchTimeZone();
  const list = trpc.suppressions.list.useQuery();
  const remove = useSave(trpc.suppressions.remove, {
    success: 'Address removed from the suppression list',
    errorTitle: 'Failed to remove the address',
    invalidate: (u) => u.suppressions.list.invalidate(),
  });
  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="suppressions">
      <Title order={2} size="h4" mb={4}>
        Suppressed addresses
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Email addresses that bounced or complained. Every send skips them.
      </Text>
      {list.error ? (
        <Alert color="red" title="Failed to load the suppression list">
          {list.error.message}
        </Alert>
      ) : null}
      <DataTable<Suppression>
        label="Suppressed addresses"
        rows={list.data ?? []}
        rowKey={(s) => s.id}
        empty={list.isLoading ? null : <Text size="sm">No suppressed addresses.</Text>}
        columns={[
          { header: 'Address', card: 'title', cell: (s) => s.email },
          { header: 'Reason', cell: (s) => s.reasonText, note: (s) => s.detail },
          { header: 'Date', cell: (s) => formatDate(s.createdAt, timeZone) },
          { header: 'Message', cell: (s) => s.campaign?.name ?? '—' },
        ]}
        actions={(s) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove ${s.email}`}
            onClick={() =>
              confirmDestructive({
                title: 'Remove from the suppression list',
                text: `Remove ${s.email}? The next emails will be sent to it again.`,
                confirm: 'Remove',
                onConfirm: () => remove.mutate({ id: s.id }),
              })
            }
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        )}
      />
    </Paper>
  );
}
