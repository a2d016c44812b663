import { Stack, Table, Text, Title } from '@mantine/core';
import type { MoveIn } from './move-in-preview';

/** A Lampstand export's preview: the church it came from and the rows each table brings. */
export function ChurchPreview({ imp }: { imp: MoveIn }) {
  const c = imp.preview.church;
  if (!c) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {c.name}, exported {c.exportedAt.slice(0, 10)}
      </Title>
      <Text size="sm">
        Everything moves into this church with new ids; nothing is sent by itself (campaigns come back as drafts,
        journeys and recurring gifts paused). {c.files} uploaded files.
      </Text>
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>What</Table.Th>
            <Table.Th ta="right">Rows</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {c.tables
            .filter((t) => t.rows > 0)
            .map((t) => (
              <Table.Tr key={t.name}>
                <Table.Td>{t.label}</Table.Td>
                <Table.Td ta="right">{t.rows}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      {c.notMoved.map((n) => (
        <Text size="sm" key={n.name}>
          Not moved: {n.reason}
        </Text>
      ))}
    </Stack>
  );
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
