import { useState } from 'react';
import { Alert, Button, FileInput, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { IconFileTypeCsv } from '@tabler/icons-react';
import type { ImportSourceId } from '@lampstand/api/schemas/imports';
import { trpc } from '../../lib/trpc';
import { RecurringPreview } from './move-in-recurring';
import { MoveInPresetForm } from './move-in-preset-form';
import { ChurchPreview, sendExportZip } from './move-in-church';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { useUnsavedChangesGuard } from '../../ui/unsaved-changes';
import { MoveInHistory, UndoImportButton } from './move-in-history';
import {
  CommitProgress,
  GiftsPreview,
  PeoplePreview,
  PolicyPicker,
  ProblemsPreview,
  type MoveIn,
  type Policy,
} from './move-in-preview';

const SOURCES = [
  { value: '', label: 'Recognise it from the header row' },
  { value: 'planning-center-people', label: 'Planning Center People export' },
  { value: 'planning-center-donations', label: 'Planning Center Giving donations export' },
  { value: 'breeze-people', label: 'Breeze people export' },
  { value: 'breeze-contributions', label: 'Breeze contributions export' },
  { value: 'churchcrm-people', label: 'ChurchCRM people export' },
  { value: 'elvanto-people', label: 'Elvanto people export' },
  { value: 'planning-center-recurring', label: 'Planning Center Giving recurring donations export' },
  { value: 'breeze-recurring', label: 'Breeze recurring contributions export' },
];

type SourceId = Exclude<ImportSourceId, 'preset' | 'lampstand-export'>;

/**
 * Settings → Move in: upload an export from another system, read the dry run (nothing is written
 * until Confirm), choose what wins for people already here, confirm, follow the background import
 * and read its report. People first, then the donations (they find their donors by the first file's ids).
 */
export function MoveInSection() {
  const [file, setFile] = useState<File | null>(null);
  const [source, setSource] = useState<string>('');
  const [importId, setImportId] = useState<number | null>(null);
  const [policy, setPolicy] = useState<Policy>({});
  const [mapping, setMapping] = useState(false);
  const [zipError, setZipError] = useState<string | null>(null);
  const presets = trpc.imports.presets.useQuery();
  const upload = useSave(trpc.imports.upload, {
    errorTitle: 'The file cannot be imported',
    onSuccess: (imp) => setImportId(imp.id),
  });
  const status = trpc.imports.get.useQuery(
    { id: importId ?? 0 },
    {
      enabled: importId !== null,
      refetchInterval: (q) =>
        q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'running') ? 500 : false,
    },
  );
  const commit = useSave(trpc.imports.commit, {
    // No toast: the progress bar in place of the button says it started (a toast would cover the next file's Confirm).
    errorTitle: 'The import was not started',
    invalidate: (u) => [u.imports.get.invalidate(), u.imports.list.invalidate()],
  });
  const imp: MoveIn | undefined = status.data ?? upload.data;
  // A file chosen and not imported yet (being read, refused, or its dry run not confirmed) is not
  // thrown away without asking: leaving the screen, another source, another file.
  const unconfirmed = file !== null && (!imp || imp.status === 'previewed');
  useUnsavedChangesGuard(unconfirmed, 'Move in', {
    title: 'Leave without importing?',
    text: `${file?.name ?? 'The file'} is not imported yet. Leave, and choose it again to import it.`,
  });
  const discardFile = (then: () => void) => {
    if (!unconfirmed) {
      then();
      return;
    }
    confirmDestructive({
      title: 'Discard the chosen file?',
      text: `${file?.name ?? 'The file'} is not imported yet. Discard it?`,
      confirm: 'Discard file',
      onConfirm: then,
    });
  };

  const reset = () => {
    setFile(null);
    setImportId(null);
    setPolicy({});
    upload.reset();
    commit.reset();
  };
  const readAndUpload = async (f: File | null) => {
    setFile(f);
    setZipError(null);
    if (!f) return;
    if (/\.zip$/i.test(f.name)) {
      // A Lampstand export ("Export everything"): moved whole into this church when it is new.
      await sendExportZip(f).then(setImportId, (e: Error) => setZipError(e.message));
      return;
    }
    const csv = await f.text();
    const preset = source.startsWith('preset:') ? Number(source.slice(7)) : undefined;
    upload.mutate({
      fileName: f.name,
      csv,
      ...(preset ? { presetId: preset } : source ? { source: source as SourceId } : {}),
    });
  };
  const sourceOptions = [
    ...SOURCES,
    ...(presets.data ?? []).map((p) => ({ value: `preset:${p.id}`, label: `Saved mapping: ${p.name}` })),
  ];

  return (
    <Paper withBorder p="lg" maw={960} mt="lg" id="move-in">
      <Title order={2} size="h4" mb={4}>
        Move in
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Bring your people, households and giving history from Planning Center, Breeze or a spreadsheet. Upload the
        people export first, then the donations. You see what would happen before anything is written.
      </Text>
      {!imp ? (
        <Stack>
          <Select
            label="Source"
            data={sourceOptions}
            value={source}
            allowDeselect={false}
            onChange={(v) =>
              discardFile(() => {
                setFile(null);
                upload.reset();
                setSource(v ?? '');
              })
            }
          />
          <FileInput
            label="Export file (CSV, or a Lampstand export ZIP)"
            placeholder="Choose a file"
            accept=".csv,text/csv,.zip,application/zip"
            error={zipError}
            leftSection={<IconFileTypeCsv size={18} />}
            value={file}
            onChange={(f) => void readAndUpload(f)}
            disabled={upload.isPending}
          />
          {upload.isPending ? <Text size="sm">Reading the file…</Text> : null}
          {mapping ? (
            <MoveInPresetForm
              onSaved={(id) => {
                setMapping(false);
                setSource(`preset:${id}`);
              }}
            />
          ) : (
            <Group>
              <Button variant="default" onClick={() => setMapping(true)}>
                Save a column mapping for another file
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <Stack>
          <Alert color="blue" title={`Recognised: ${imp.sourceLabel}`}>
            {imp.fileName}: {imp.preview.rows} rows. {imp.status === 'previewed' ? 'Nothing has been written yet.' : ''}
          </Alert>
          <PeoplePreview imp={imp} />
          <GiftsPreview imp={imp} />
          <RecurringPreview imp={imp} />
          <ChurchPreview imp={imp} />
          <ProblemsPreview imp={imp} />
          {imp.status === 'previewed' && imp.kind === 'people' ? (
            <PolicyPicker policy={policy} onChange={setPolicy} />
          ) : null}
          <CommitProgress imp={imp} />
          <Group>
            {imp.status === 'previewed' ? (
              <Button
                onClick={() => commit.mutate({ id: imp.id, policy })}
                loading={commit.isPending}
                disabled={imp.kind === 'gifts' && imp.preview.problems.length > 0}
              >
                Confirm import
              </Button>
            ) : null}
            <UndoImportButton imp={imp} />
            {imp.status !== 'queued' && imp.status !== 'running' ? (
              <Button variant="default" onClick={() => discardFile(reset)}>
                {imp.status === 'previewed' ? 'Choose another file' : 'Import another file'}
              </Button>
            ) : null}
          </Group>
        </Stack>
      )}
      <MoveInHistory />
    </Paper>
  );
}
