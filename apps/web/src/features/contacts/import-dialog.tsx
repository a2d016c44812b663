import {
  Alert,
  Button,
  FileInput,
  Group,
  List,
  Modal,
  Progress,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import {
  IMPORT_FIELDS,
  MAX_HOUSEHOLD,
  importMappingSchema,
  type ImportHouseholds,
} from '@lampstand/api/schemas/contact-imports';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';
import { notifySuccess } from '../../ui/notify';

/** Upload a CSV, map its columns, preview, then import in the background with a progress bar and a report. */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [file, setFile] = useState<File | null>(null);
  const [importId, setImportId] = useState<number | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [listId, setListId] = useState<string | null>(null);
  const [mappingError, setMappingError] = useState<string | null>(null);
  const lists = trpc.contactLists.list.useQuery({ include_counts: false }, { enabled: opened });
  const upload = useSave(trpc.contactImports.upload, {
    errorTitle: 'Import failed',
    onSuccess: (imp) => {
      setImportId(imp.id);
      setMapping(Object.fromEntries(imp.headers.map((h) => [h, imp.suggestedMapping[h] ?? ''])));
    },
  });
  const status = trpc.contactImports.get.useQuery(
    { id: importId ?? 0 },
    {
      enabled: importId !== null,
      refetchInterval: (q) =>
        q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'running') ? 500 : false,
    },
  );
  const householdColumn = Object.entries(mapping).find(([, f]) => f === 'household')?.[0];
  const households = trpc.contactImports.households.useQuery(
    { id: importId ?? 0, column: householdColumn ?? '' },
    { enabled: importId !== null && householdColumn !== undefined },
  );
  const start = useSave(trpc.contactImports.start, { errorTitle: 'Import failed', onSuccess: () => status.refetch() });
  const imp = status.data ?? upload.data;
  const finished = imp?.status === 'completed' || imp?.status === 'failed';

  const reset = () => {
    setFile(null);
    setImportId(null);
    setMapping({});
    setListId(null);
    setMappingError(null);
    upload.reset();
    start.reset();
  };
  const close = async () => {
    if (finished) {
      await Promise.all([utils.contacts.find.invalidate(), utils.contactLists.list.invalidate()]);
      if (imp?.status === 'completed')
        notifySuccess(
          'Import complete',
          `${imp.createdCount} created, ${imp.updatedCount} updated, ${imp.skipped.length} skipped.`,
        );
    }
    reset();
    onClose();
  };

  const readAndUpload = async (f: File | null) => {
    setFile(f);
    if (!f) return;
    const csv = await f.text();
    upload.mutate({ fileName: f.name, csv });
  };

  const begin = () => {
    const parsed = importMappingSchema.safeParse(mapping);
    if (!parsed.success) {
      setMappingError(parsed.error.issues[0]?.message ?? 'Check the mapping');
      return;
    }
    setMappingError(null);
    start.mutate({ id: importId!, mapping: parsed.data, listId: listId ? Number(listId) : undefined });
  };

  const fieldOptions = [
    { value: '', label: 'Skip this column' },
    ...IMPORT_FIELDS.map((f) => ({ value: f.value, label: f.label })),
  ];

  return (
    <Modal opened={opened} onClose={() => void close()} title="Import contacts from CSV" size="xl" centered>
      {!imp ? (
        <Stack>
          <Text size="sm">
            Choose a CSV file with a header row. People are matched by email, then by phone: a match is updated (never
            re-subscribing someone who unsubscribed), anyone else is added.
          </Text>
          <FileInput
            label="CSV file"
            placeholder="Choose a file"
            accept=".csv,text/csv"
            leftSection={<IconFileTypeCsv size={18} />}
            value={file}
            onChange={(f) => void readAndUpload(f)}
            disabled={upload.isPending}
          />
          {upload.isPending ? <Text size="sm">Reading the file...</Text> : null}
        </Stack>
      ) : imp.status === 'uploaded' ? (
        <Stack>
          <Text size="sm">
            <b>{imp.fileName}</b>: {formatNumber(imp.totalRows)} rows. Match each column to a contact field.
          </Text>
          <ScrollArea.Autosize
            mah={260}
            type="auto"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Column matching' }}
          >
            <Table withTableBorder>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>Contact field</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {imp.headers.map((h) => (
                  <Table.Tr key={h}>
                    <Table.Td>{h}</Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`Field for column ${h}`}
                        size="xs"
                        data={fieldOptions}
                        value={mapping[h] ?? ''}
                        allowDeselect={false}
                        onChange={(v) => setMapping((m) => ({ ...m, [h]: v ?? '' }))}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          {householdColumn ? <HouseholdsNote column={householdColumn} data={households.data} /> : null}
          <Text fw={600} size="sm">
            Preview (first rows)
          </Text>
          <ScrollArea
            type="auto"
            viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Preview of the first rows' }}
          >
            <Table withTableBorder striped fz="xs">
              <Table.Thead>
                <Table.Tr>
                  {imp.headers.map((h) => (
                    <Table.Th key={h}>{h}</Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {imp.preview.map((row, i) => (
                  <Table.Tr key={i}>
                    {imp.headers.map((h, j) => (
                      <Table.Td key={h}>{row[j] ?? ''}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <Select
            label="Add everyone imported to a list (optional)"
            placeholder="No list"
            clearable
            data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
            value={listId}
            onChange={setListId}
          />
          {mappingError ? <Alert color="red">{mappingError}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={reset}>
              Choose another file
            </Button>
            <Button onClick={begin} loading={start.isPending}>
              Import {formatNumber(imp.totalRows)} rows
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            {finished
              ? imp.status === 'completed'
                ? 'Import complete.'
                : 'The import stopped.'
              : 'Importing in the background. You can close this window; it carries on.'}
          </Text>
          <Progress
            value={imp.totalRows ? (100 * imp.processedRows) / imp.totalRows : 0}
            animated={!finished}
            size="lg"
            aria-label="Import progress"
          />
          <Text size="sm">
            {formatNumber(imp.processedRows)} of {formatNumber(imp.totalRows)} rows · {formatNumber(imp.createdCount)}{' '}
            created · {formatNumber(imp.updatedCount)} updated · {formatNumber(imp.skipped.length)} skipped
          </Text>
          {imp.error ? <Alert color="red">{imp.error}</Alert> : null}
          {imp.skipped.length > 0 ? (
            <>
              <Text fw={600} size="sm">
                Skipped rows
              </Text>
              <ScrollArea.Autosize
                mah={220}
                type="auto"
                viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Skipped rows' }}
              >
                <List size="sm" spacing={2} data-testid="import-skipped">
                  {imp.skipped.map((s) => (
                    <List.Item key={`${s.line}-${s.reason}`}>
                      Line {s.line}: {s.reason}
                    </List.Item>
                  ))}
                </List>
              </ScrollArea.Autosize>
            </>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={() => void close()}>{finished ? 'Done' : 'Close'}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** What the household column will do, said before the import starts. */
function HouseholdsNote({ column, data }: { column: string; data: ImportHouseholds | undefined }) {
  if (!data) return null;
  return (
    <Alert color="blue" title="Households">
      {data.households === 0
        ? `No two rows share a value in '${column}': no families will be made.`
        : `${formatNumber(data.households)} ${data.households === 1 ? 'household' : 'households'} will be made from '${column}' (${formatNumber(data.people)} people): the people of each are linked as family.`}
      {data.tooLarge > 0
        ? ` ${formatNumber(data.tooLarge)} ${data.tooLarge === 1 ? 'value is' : 'values are'} shared by more than ${MAX_HOUSEHOLD} rows: only the first ${MAX_HOUSEHOLD} of each are linked.`
        : null}
    </Alert>
  );
}
