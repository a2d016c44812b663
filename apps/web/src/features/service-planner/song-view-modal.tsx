import { Badge, Button, Group, Loader, Modal, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { type Song } from '@lampstand/api/schemas/service-planner';
import { readChordProMeta } from '@lampstand/api/shared/chordpro';
import { trpc } from '../../lib/trpc';
import { ChordChart, KEY_OPTIONS } from './bits';
import { PLANNER_STALE_MS } from './planner-cache';

/**
 * A song's chart, shown in any key (sharps or flats as that key wants): first in `initialKey` (a
 * plan's key for the song) or the song's own.
 */
export function SongViewModal({
  song,
  initialKey,
  onClose,
}: {
  song: Song;
  initialKey?: string | null;
  onClose: () => void;
}) {
  const [key, setKey] = useState<string | null>((song.keySignature && initialKey) || song.keySignature);
  const [view, setView] = useState<'chords' | 'numbers'>('chords');
  const capo = song.chords ? readChordProMeta(song.chords).capo : null;
  return (
    <Modal opened onClose={onClose} title={song.title} size="xl">
      <Stack>
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Text size="sm" c="dimmed">
            {[
              song.artist,
              song.keySignature ? `Original key ${song.keySignature}` : null,
              song.tempo ? `${song.tempo} BPM` : null,
              song.timeSignature,
              song.ccliNumber ? `CCLI ${song.ccliNumber}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          <Group gap="xs" align="flex-end" wrap="wrap">
            {song.chords ? (
              <SegmentedControl
                aria-label="Show chords as"
                value={view}
                onChange={(v) => setView(v)}
                data={[
                  { value: 'chords', label: 'Chords' },
                  { value: 'numbers', label: 'Numbers', disabled: !key },
                ]}
              />
            ) : null}
            <Select
              label="Show in key"
              data={KEY_OPTIONS}
              value={key}
              onChange={setKey}
              disabled={!song.keySignature}
              w={160}
              searchable
            />
            <Button
              variant="default"
              leftSection={<IconPrinter size={18} />}
              component={Link}
              to={`/service-planner/songs/${song.id}/print${key ? `?key=${encodeURIComponent(key)}` : ''}`}
            >
              Print
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={18} />}
              component="a"
              href={`/api/service-planner/songs/${song.id}/chordpro`}
              download
            >
              ChordPro
            </Button>
          </Group>
        </Group>
        {capo ? (
          <Badge variant="light" color="indigo" size="lg" w="fit-content">
            Capo {capo}: chords as played
          </Badge>
        ) : null}
        {song.chords ? (
          <ChordChart chords={song.chords} fromKey={song.keySignature} toKey={key} numbers={view === 'numbers'} />
        ) : song.lyrics ? (
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {song.lyrics}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            No chords or lyrics yet.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}

/** A plan's song, opened from its title in the order of service: its chart in the plan's key. */
export function PlanSongChart({
  songId,
  planKey,
  title,
  onClose,
}: {
  songId: number;
  planKey: string | null;
  title: string;
  onClose: () => void;
}) {
  const song = trpc.servicePlanner.songs.get.useQuery({ id: songId }, { staleTime: PLANNER_STALE_MS });
  if (song.data) return <SongViewModal song={song.data} initialKey={planKey} onClose={onClose} />;
  return (
    <Modal opened onClose={onClose} title={title} size="xl">
      {song.isError ? (
        <Text size="sm" c="red.8">
          Failed to load the song. Please try again.
        </Text>
      ) : (
        <Loader size="sm" aria-label="Loading the song" />
      )}
    </Modal>
  );
}
