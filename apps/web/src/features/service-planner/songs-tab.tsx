import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconEye, IconMusic, IconPencil, IconPlus, IconPrinter, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { createSongSchema, type Song } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { CardList, DataTable, RowActionsMenu } from '../../ui/data-table';
import { formatDate } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { ChordChart, KEY_OPTIONS } from './bits';
import { PLANNER_STALE_MS } from './plans-tab';

type SongInput = z.input<typeof createSongSchema>;

function SongFormModal({ song, onClose }: { song?: Song; onClose: () => void }) {
  const utils = trpc.useUtils();
  const create = trpc.servicePlanner.songs.create.useMutation();
  const update = trpc.servicePlanner.songs.update.useMutation();
  const form = useForm<SongInput>({
    mode: 'controlled',
    initialValues: {
      title: song?.title ?? '',
      artist: song?.artist ?? '',
      keySignature: song?.keySignature ?? null,
      tempo: song?.tempo ?? '',
      timeSignature: song?.timeSignature ?? '',
      ccliNumber: song?.ccliNumber ?? '',
      tags: song?.tags ?? [],
      chords: song?.chords ?? '',
      lyrics: song?.lyrics ?? '',
      notes: song?.notes ?? '',
      audioUrl: song?.audioUrl ?? '',
    },
    validate: schemaResolver(createSongSchema, { sync: true }),
  });
  const save = async (values: SongInput) => {
    try {
      if (song) await update.mutateAsync({ id: song.id, ...values });
      else await create.mutateAsync(values);
      await utils.servicePlanner.songs.invalidate();
      notifySuccess(song ? 'Song updated' : 'Song added');
      onClose();
    } catch (err) {
      notifyError(song ? 'Failed to update song' : 'Failed to add song', errorMessage(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title={song ? 'Edit Song' : 'Add Song'} size="xl">
      <form onSubmit={form.onSubmit((v) => void save(v))} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
            <TextInput label="Artist" {...form.getInputProps('artist')} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Select label="Key" searchable clearable data={KEY_OPTIONS} {...form.getInputProps('keySignature')} />
            <NumberInput label="Tempo (BPM)" min={20} max={300} {...form.getInputProps('tempo')} />
            <TextInput label="Time signature" placeholder="4/4" {...form.getInputProps('timeSignature')} />
            <TextInput label="CCLI number" {...form.getInputProps('ccliNumber')} />
          </SimpleGrid>
          <TagsInput label="Tags" placeholder="e.g. hymn, upbeat" {...form.getInputProps('tags')} />
          <Textarea
            label="Chords (ChordPro)"
            description="Chords in brackets before the word they fall on: [G]Amazing [D/F#]grace"
            autosize
            minRows={5}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            {...form.getInputProps('chords')}
          />
          <Textarea label="Lyrics" autosize minRows={3} {...form.getInputProps('lyrics')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea label="Notes" autosize minRows={1} {...form.getInputProps('notes')} />
            <TextInput label="Audio URL" {...form.getInputProps('audioUrl')} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {song ? 'Save Song' : 'Add Song'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A song's chart, shown in any key (sharps or flats as that key wants). */
function SongViewModal({ song, onClose }: { song: Song; onClose: () => void }) {
  const [key, setKey] = useState<string | null>(song.keySignature);
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
          <Group gap="xs" align="flex-end">
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
          </Group>
        </Group>
        {song.chords ? (
          <ChordChart chords={song.chords} fromKey={song.keySignature} toKey={key} />
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

export function SongsTab() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const songs = trpc.servicePlanner.songs.list.useQuery(
    { search: debounced || undefined },
    { staleTime: PLANNER_STALE_MS },
  );
  const [editing, setEditing] = useState<Song | 'new' | null>(null);
  const [viewing, setViewing] = useState<Song | null>(null);
  const utils = trpc.useUtils();
  const del = trpc.servicePlanner.songs.delete.useMutation();
  const phone = useMediaQuery('(max-width: 48em)');

  const remove = (s: Song) =>
    confirmDestructive({
      title: 'Delete song',
      text: `Delete "${s.title}"? Plans that use it keep their items but lose the song.`,
      confirm: 'Delete',
      onConfirm: () =>
        void del
          .mutateAsync({ id: s.id })
          .then(async () => {
            await utils.servicePlanner.songs.invalidate();
            notifySuccess('Song deleted');
          })
          .catch((err: unknown) => notifyError('Failed to delete song', errorMessage(err))),
    });
  const actions = (s: Song) => (
    <RowActionsMenu
      label={`Actions for ${s.title}`}
      items={[
        { label: 'View chart', icon: <IconEye size={16} />, onClick: () => setViewing(s) },
        { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => setEditing(s) },
        { label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => remove(s) },
      ]}
    />
  );
  const usage = (s: Song) =>
    s.lastUsed ? `Last used ${formatDate(s.lastUsed)} · ${s.usesLast90Days} in 90 days` : 'Not used yet';

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <TextInput
          aria-label="Search songs"
          placeholder="Search by title, artist or tag"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={{ base: '100%', sm: 320 }}
        />
        <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
          Add Song
        </Button>
      </Group>
      {songs.isLoading ? (
        <Skeleton height={120} />
      ) : songs.isError ? (
        <Text c="red.8">Failed to load songs. Please try again.</Text>
      ) : !songs.data?.length ? (
        <EmptyState
          icon={<IconMusic size={24} />}
          title={search ? 'No songs match your search' : 'No songs yet'}
          description={search ? undefined : 'Add your songs with their chords to plan and print them in any key.'}
        />
      ) : phone ? (
        <CardList
          rows={songs.data}
          actions={actions}
          card={(s) => (
            <>
              <Text fw={600}>{s.title}</Text>
              <Text size="sm">
                {[s.artist, s.keySignature ? `Key ${s.keySignature}` : null].filter(Boolean).join(' · ')}
              </Text>
              <Text size="xs" c="dimmed">
                {usage(s)}
              </Text>
            </>
          )}
        />
      ) : (
        <DataTable
          minWidth={700}
          stickyHeader
          actions="hidden"
          headers={['Title', 'Artist', 'Key', 'Tempo', 'Tags', 'Used']}
        >
          {songs.data.map((s) => (
            <Table.Tr key={s.id}>
              <Table.Td>
                <Text size="sm" fw={600}>
                  {s.title}
                </Text>
              </Table.Td>
              <Table.Td>{s.artist}</Table.Td>
              <Table.Td>{s.keySignature}</Table.Td>
              <Table.Td>{s.tempo ? `${s.tempo} BPM` : ''}</Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {s.tags.map((t) => (
                    <Badge
                      key={t}
                      size="sm"
                      variant="light"
                      color="gray"
                      style={{ cursor: 'pointer' }}
                      onClick={() => setSearch(t)}
                    >
                      {t}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="xs">{usage(s)}</Text>
              </Table.Td>
              <Table.Td ta="right">{actions(s)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      {editing ? (
        <SongFormModal song={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      {viewing ? <SongViewModal song={viewing} onClose={() => setViewing(null)} /> : null}
    </Stack>
  );
}
