import { Button, FileButton, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload, IconFileImport, IconReportAnalytics } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { MAX_CHORDPRO_BYTES, songUsageInputSchema } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { DataTable } from '../../ui/data-table';
import { formatDate } from '../../ui/format';

/** 'Import ChordPro': one or many .cho / .chordpro / .pro files, each at most 1 MB, read as text. */
export function ImportChordProButton() {
  const importSongs = useSave(trpc.servicePlanner.songs.importChordPro, {
    success: (r) => (r.songs.length === 1 ? `Imported ${r.songs[0]!.title}` : `Imported ${r.songs.length} songs`),
    errorTitle: 'Failed to import songs',
    invalidate: (utils) => utils.servicePlanner.songs.invalidate(),
  });
  const read = async (files: File[]) => {
    const big = files.find((f) => f.size > MAX_CHORDPRO_BYTES);
    if (big) return importSongs.fail(`${big.name} is larger than 1 MB`);
    if (files.length)
      importSongs.mutate({
        files: await Promise.all(files.map(async (f) => ({ name: f.name, content: await f.text() }))),
      });
  };
  return (
    <FileButton multiple accept=".cho,.chordpro,.pro,.crd,.chopro,text/plain" onChange={(f) => void read(f)}>
      {(props) => (
        <Button {...props} variant="default" leftSection={<IconFileImport size={18} />} loading={importSongs.isPending}>
          Import ChordPro
        </Button>
      )}
    </FileButton>
  );
}

/** The song-usage report (CCLI): each song of the plans in a date range, counted per service time. */
export function SongUsageButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconReportAnalytics size={18} />} onClick={() => setOpen(true)}>
        Song usage
      </Button>
      {open ? <SongUsageModal onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/** The report's ready ranges: the past six months (what was sung) or the plans still to come. */
const RANGES = {
  past: () => ({ from: dayjs().subtract(6, 'month').format('YYYY-MM-DD'), to: dayjs().format('YYYY-MM-DD') }),
  coming: () => ({ from: dayjs().format('YYYY-MM-DD'), to: dayjs().add(3, 'month').format('YYYY-MM-DD') }),
};

function SongUsageModal({ onClose }: { onClose: () => void }) {
  const [from, setFrom] = useState(RANGES.past().from);
  const [to, setTo] = useState(RANGES.past().to);
  const choose = (range: keyof typeof RANGES) => {
    setFrom(RANGES[range]().from);
    setTo(RANGES[range]().to);
  };
  const today = dayjs().format('YYYY-MM-DD');
  const chosen =
    // Neither when the dates were typed.
    (['past', 'coming'] as const).find((r) => RANGES[r]().from === from && RANGES[r]().to === to) ?? '';
  const range = songUsageInputSchema.safeParse({ from, to });
  const issue = (field: string) =>
    range.success ? undefined : range.error.issues.find((i) => i.path[0] === field)?.message;
  const report = trpc.servicePlanner.reports.songUsage.useQuery({ from, to }, { enabled: range.success });
  const songs = report.data && 'songs' in report.data ? report.data.songs : [];
  return (
    <Modal opened onClose={onClose} title="Song usage" size="xl">
      <Stack>
        <Text size="sm" c="dimmed">
          Each song used by the plans in these dates, counted once per service time: a plan held at 9:00 and 11:00
          counts twice, as CCLI reporting asks.
        </Text>
        <SegmentedControl
          aria-label="Which plans"
          value={chosen}
          onChange={(v) => (v === 'past' || v === 'coming' ? choose(v) : undefined)}
          data={[
            { value: 'past', label: 'Past 6 months' },
            { value: 'coming', label: 'Coming plans' },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="From"
            type="date"
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
            error={issue('from')}
          />
          <TextInput
            label="To"
            type="date"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            error={issue('to')}
          />
          {range.success && songs.length > 0 ? (
            <Button
              variant="default"
              leftSection={<IconDownload size={18} />}
              component="a"
              href={`/api/service-planner/reports/song-usage?from=${from}&to=${to}&format=csv`}
              download
            >
              Download CSV
            </Button>
          ) : (
            // Nothing to download: a real disabled button (a disabled link is still read, and its grey
            // text is under AA contrast).
            <Button variant="default" leftSection={<IconDownload size={18} />} disabled>
              Download CSV
            </Button>
          )}
        </Group>
        {report.isError ? (
          <Text c="red.8">Failed to load the report. Please try again.</Text>
        ) : report.isLoading ? (
          <Text size="sm">Loading…</Text>
        ) : songs.length === 0 ? (
          <Text size="sm" c="dimmed">
            {to > today ? 'No songs are planned in these dates.' : 'No songs were used in these dates.'}
          </Text>
        ) : (
          <DataTable
            label="Song usage"
            rows={songs}
            rowKey={(s) => s.songId}
            minWidth={640}
            columns={[
              {
                header: 'Song',
                card: 'title',
                cell: (s) => (
                  <Text size="sm" fw={600}>
                    {s.title}
                  </Text>
                ),
              },
              { header: 'Artist', cell: (s) => s.artist },
              { header: 'CCLI number', cell: (s) => s.ccliNumber ?? '—' },
              { header: 'Uses', cell: (s) => s.uses },
              { header: to > today ? 'Last planned' : 'Last used', cell: (s) => formatDate(s.lastUsed) },
            ]}
          />
        )}
      </Stack>
    </Modal>
  );
}
