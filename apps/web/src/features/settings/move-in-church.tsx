import { Alert, List, Stack, Table, Text, Title } from '@mantine/core';
import { formatDate, formatNumber } from '../../ui/format';
import type { MoveIn } from './move-in-preview';

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** A Lampstand export's preview: the church it came from, the rows each table brings, and what stays behind. */
export function ChurchPreview({ imp }: { imp: MoveIn }) {
  const c = imp.preview.church;
  if (!c) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {c.name}, exported {formatDate(c.exportedAt)}
      </Title>
      <Text size="sm">
        Everything moves into this church with new ids; nothing is sent by itself (campaigns come back as drafts,
        journeys and recurring gifts paused). {plural(c.files, 'uploaded file', 'uploaded files')}.
      </Text>
      <Table striped withTableBorder aria-label="Rows per table" layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th ta="right" w={88}>
              Rows
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {c.tables
            .filter((t) => t.rows > 0)
            .map((t) => (
              <Table.Tr key={t.name}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{t.label}</Table.Td>
                <Table.Td ta="right">{formatNumber(t.rows)}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      {c.notMoved.length ? (
        <Alert color="yellow" title="What does not move">
          <List size="sm" spacing={4}>
            {c.notMoved.map((n) => (
              <List.Item key={n.name}>{n.reason}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
    </Stack>
  );
}

/** The finished move's one line: rows written and files copied. */
export function churchDone(done: { tables: { rows: number }[]; files: number }): string {
  const rows = done.tables.reduce((s, t) => s + t.rows, 0);
  return `Everything moved in: ${plural(rows, 'row', 'rows')} in ${plural(done.tables.filter((t) => t.rows > 0).length, 'table', 'tables')}, ${plural(done.files, 'file', 'files')} copied.`;
}

/** Upload a ZIP as multipart to `POST /api/imports` (the tRPC upload takes a CSV's text). */
export async function sendExportZip(file: File): Promise<number> {
  const form = new FormData();
  form.append('file', file);
  const res = await fetch('/api/imports', { method: 'POST', body: form, credentials: 'same-origin' });
  const body = (await res.json().catch(() => null)) as { id?: number; message?: string } | null;
  if (!res.ok || !body?.id) throw new Error(body?.message || 'The file could not be uploaded. Please try again.');
  return body.id;
}
