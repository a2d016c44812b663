import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatDate, formatNumber } from '../../ui/format';
import { statusColor, type StatusKind } from '../../ui/status-color';
import { undoneWords, type MoveIn } from './move-in-preview';

/** The church's recent imports, each with its state, and Undo while the 7 days last. */

const STATUS: Record<MoveIn['status'], [string, StatusKind]> = {
  previewed: ['Not confirmed', 'neutral'],
  queued: ['Waiting to start', 'waiting'],
  running: ['Importing', 'working'],
  completed: ['Imported', 'success'],
  failed: ['Stopped', 'failure'],
  undone: ['Undone', 'neutral'],
};

/** Can it be undone now (a completed import, within its 7 days)? */
export const undoable = (imp: MoveIn) =>
  imp.status === 'completed' && imp.undoUntil !== null && Date.parse(imp.undoUntil) > Date.now();

/** What undoing it takes back, in the church's words (the confirm dialog says how much). */
function undoWords(imp: MoveIn): string {
  const people = imp.report?.people;
  if (people)
    return (
      `The ${formatNumber(people.created)} people it added are removed (but for anyone who has given, checked in, ` +
      `joined a group, registered or texted since), and the ${formatNumber(people.updated)} ` +
      'people it changed get their details back. A detail someone changed after the import is kept'
    );
  const gifts = imp.preview.gifts;
  const funds = imp.report?.fundsCreated ?? [];
  return (
    `Its ${formatNumber(gifts?.count ?? 0)} gifts leave the ledger` +
    (funds.length ? `, and the funds it made (${funds.join(', ')}) are removed if nothing else uses them` : '')
  );
}

/** 'Undo import', with a confirm dialog; absent once the import cannot be undone. */
export function UndoImportButton({ imp }: { imp: MoveIn }) {
  const undo = useSave(trpc.imports.undo, {
    errorTitle: 'The import was not undone',
    success: (out) => ['Import undone', undoneWords(out)],
    invalidate: (u) => [u.imports.get.invalidate(), u.imports.list.invalidate()],
  });
  if (!undoable(imp) || !imp.undoUntil) return null;
  return (
    <Button
      variant="light"
      color="red"
      leftSection={<IconArrowBackUp size={18} />}
      loading={undo.isPending}
      onClick={() =>
        confirmDestructive({
          title: 'Undo this import?',
          text: `${undoWords(imp)}. ` + `${imp.fileName} can be undone until ${formatDate(imp.undoUntil)}.`,
          confirm: 'Undo import',
          onConfirm: () => undo.mutate({ id: imp.id }),
        })
      }
    >
      Undo import
    </Button>
  );
}

/** The latest imports: file, what it was, its state, and Undo where it can be. */
export function MoveInHistory() {
  // Followed while an import is on its way, so its state here keeps up with the progress above.
  const list = trpc.imports.list.useQuery(undefined, {
    refetchInterval: (q) => (q.state.data?.some((i) => i.status === 'queued' || i.status === 'running') ? 1000 : false),
  });
  const rows = (list.data ?? []).filter((i) => i.status !== 'previewed');
  if (!rows.length) return null;
  return (
    <Stack gap="xs" mt="lg">
      <Title order={3} size="h5">
        Recent imports
      </Title>
      {rows.map((imp) => {
        const [word, kind] = STATUS[imp.status];
        return (
          <Paper key={imp.id} withBorder p="sm" aria-label={`Import ${imp.fileName}`} component="section">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {imp.fileName}
                  </Text>
                  <Badge color={statusColor(kind)} variant="light">
                    {word}
                  </Badge>
                </Group>
                <Text size="xs" c="dimmed">
                  {imp.kind === 'people' ? 'People' : 'Donations'} · {imp.sourceLabel} ·{' '}
                  {imp.undoneAt
                    ? `undone ${formatDate(imp.undoneAt)}`
                    : imp.finishedAt
                      ? `finished ${formatDate(imp.finishedAt)}`
                      : `uploaded ${formatDate(imp.createdAt)}`}
                </Text>
              </Stack>
              <UndoImportButton imp={imp} />
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}
