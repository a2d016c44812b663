import { Alert, Anchor, Button, Center, Checkbox, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PROPOSAL_FIELD_LABELS, type ProposalField } from '@lampstand/api/schemas/portal';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { formatDate } from '../../ui/format';
import { useChurchTimeZone } from '../../lib/time-zone';
import { usePhoneFormatter } from '../../lib/phone';

const refresh = (utils: SaveUtils) => [utils.profileUpdates.list.invalidate(), utils.profileUpdates.count.invalidate()];
const label = (f: string) => PROPOSAL_FIELD_LABELS[f as ProposalField] ?? f;

/**
 * Profile updates: the details members proposed in the portal, old → new per field,
 * approved (the contact changes) or rejected, one by one or the selected ones together.
 */
export function ProfileUpdatesPage() {
  const list = trpc.profileUpdates.list.useQuery();
  const timeZone = useChurchTimeZone();
  const phone = usePhoneFormatter();
  // A phone and a birthday as the church writes them; anything else as proposed.
  const shown = (field: string, v: string | null) =>
    !v
      ? '(empty)'
      : field === 'phone'
        ? phone({ phone: v, phoneE164: null })
        : field === 'dateOfBirth'
          ? formatDate(v) || v
          : v;
  const [selected, setSelected] = useState<number[]>([]);
  const approve = useSave(trpc.profileUpdates.approve, {
    success: (r) => (r.decided === 1 ? 'Update approved' : `${r.decided} updates approved`),
    errorTitle: 'Error',
    errorPrefix: 'Failed to approve',
    invalidate: refresh,
    onSuccess: () => setSelected([]),
  });
  const reject = useSave(trpc.profileUpdates.reject, {
    success: 'Update rejected',
    errorTitle: 'Error',
    errorPrefix: 'Failed to reject',
    invalidate: refresh,
    onSuccess: () => setSelected([]),
  });
  const rows = list.data ?? [];
  const busy = approve.isPending || reject.isPending;
  const toggle = (id: number, on: boolean) => setSelected((s) => (on ? [...s, id] : s.filter((x) => x !== id)));

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Profile updates
        </Title>
        <Text c="dimmed" mt={4}>
          Details members proposed on your members&apos; page. Nothing changes until you approve it.
        </Text>
      </div>
      {list.isLoading ? (
        <Center py="xl">
          <Loader aria-label="Loading profile updates" />
        </Center>
      ) : list.error ? (
        <Alert color="red" title="Error">
          Failed to load profile updates. Please try again later.
        </Alert>
      ) : rows.length === 0 ? (
        <Paper withBorder p="xl">
          <Text ta="center" c="dimmed">
            No profile updates are waiting.
          </Text>
        </Paper>
      ) : (
        <Paper withBorder p="md">
          <Group justify="space-between" mb="sm">
            <Checkbox
              label="Select all"
              checked={selected.length === rows.length}
              indeterminate={selected.length > 0 && selected.length < rows.length}
              onChange={(e) => setSelected(e.currentTarget.checked ? rows.map((r) => r.id) : [])}
            />
            <Button
              disabled={selected.length === 0}
              loading={approve.isPending}
              onClick={() =>
                modals.openConfirmModal({
                  title: `Approve ${selected.length} profile update${selected.length === 1 ? '' : 's'}?`,
                  children: (
                    <Text size="sm">
                      The new details replace what {selected.length === 1 ? 'this contact has' : 'these contacts have'}{' '}
                      now.
                    </Text>
                  ),
                  labels: { confirm: 'Approve', cancel: 'Cancel' },
                  onConfirm: () => approve.mutate({ ids: selected }),
                })
              }
            >
              Approve selected
            </Button>
          </Group>
          <Stack gap="sm">
            {rows.map((r) => (
              <Paper key={r.id} withBorder p="sm" component="article" aria-label={r.contactName}>
                <Group justify="space-between" align="flex-start" wrap="nowrap">
                  <Group gap="sm" align="flex-start" wrap="nowrap">
                    <Checkbox
                      mt={4}
                      aria-label={`Select ${r.contactName}`}
                      checked={selected.includes(r.id)}
                      onChange={(e) => toggle(r.id, e.currentTarget.checked)}
                    />
                    <div>
                      <Anchor component={Link} to={`/contacts/detail/${r.contactId}`} fw={600}>
                        {r.contactName}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        Proposed {formatDate(r.createdAt, timeZone)}
                      </Text>
                    </div>
                  </Group>
                </Group>
                <Stack gap={4} my="sm" pl={36}>
                  {Object.entries(r.changes).map(([field, c]) => (
                    <Text size="sm" key={field}>
                      <b>{label(field)}</b>: {shown(field, c.from)} → {shown(field, c.to)}
                    </Text>
                  ))}
                </Stack>
                <Group gap="xs" pl={36}>
                  <Button
                    size="xs"
                    disabled={busy}
                    onClick={() => approve.mutate({ ids: [r.id] })}
                    aria-label={`Approve ${r.contactName}`}
                  >
                    Approve
                  </Button>
                  <Button
                    size="xs"
                    variant="default"
                    disabled={busy}
                    onClick={() => reject.mutate({ ids: [r.id] })}
                    aria-label={`Reject ${r.contactName}`}
                  >
                    Reject
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
