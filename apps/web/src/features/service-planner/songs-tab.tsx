import { Anchor, Badge, Button, Group, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEye, IconMusic, IconPencil, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type Song } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { DataTable, RowActionsMenu } from '../../ui/data-table';
import { formatDate } from '../../ui/format';
import { PLANNER_STALE_MS } from './planner-cache';
import { SongFormModal } from './song-form-modal';
import { SongViewModal } from './song-view-modal';
import { ImportChordProButton, SongUsageButton } from './song-files';

export function SongsTab() {
  // The header's search opens a song as this tab searched for its title (?q=).
  const [params] = useSearchParams();
  const q = params.get('q') ?? '';
  const [search, setSearch] = useState(q);
  const [searchedFor, setSearchedFor] = useState(q);
  if (q !== searchedFor) {
    setSearchedFor(q);
    setSearch(q);
  }
  const [debounced] = useDebouncedValue(search, 250);
  const songs = trpc.servicePlanner.songs.list.useQuery(
    { search: debounced || undefined },
    { staleTime: PLANNER_STALE_MS },
  );
  const [editing, setEditing] = useState<Song | 'new' | null>(null);
  const [viewing, setViewing] = useState<Song | null>(null);
  const del = useSave(trpc.servicePlanner.songs.delete, {
    success: 'Song deleted',
    errorTitle: 'Failed to delete song',
    invalidate: (utils) => utils.servicePlanner.songs.invalidate(),
  });

  const remove = (s: Song) =>
    confirmDestructive({
      title: 'Delete song',
      text: `Delete "${s.title}"? Plans that use it keep their items but lose the song.`,
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: s.id }),
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
    (s.lastUsed ? `Last used ${formatDate(s.lastUsed)} · ${s.usesLast90Days} in 90 days` : 'Not used yet') +
    (s.nextPlanned ? ` · Next ${formatDate(s.nextPlanned)}` : '');

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
        <Group gap="xs" wrap="wrap">
          <SongUsageButton />
          <ImportChordProButton />
          <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
            Add Song
          </Button>
        </Group>
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
      ) : (
        <DataTable
          label="Songs"
          rows={songs.data}
          rowKey={(s) => s.id}
          minWidth={700}
          stickyHeader
          actionsHeader="hidden"
          actionsTd={{ ta: 'right' }}
          actions={actions}
          columns={[
            {
              header: 'Title',
              card: 'title',
              cell: (s) => (
                <Anchor component="button" type="button" size="sm" fw={600} onClick={() => setViewing(s)}>
                  {s.title}
                </Anchor>
              ),
            },
            { header: 'Artist', cell: (s) => s.artist },
            { header: 'Key', cell: (s) => s.keySignature },
            { header: 'Tempo', cell: (s) => (s.tempo ? `${s.tempo} BPM` : '') },
            {
              header: 'Tags',
              cell: (s) =>
                s.tags.length ? (
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
                ) : null,
            },
            { header: 'Used', cell: (s) => <Text size="xs">{usage(s)}</Text> },
          ]}
        />
      )}
      {editing ? (
        <SongFormModal song={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
      {viewing ? <SongViewModal song={viewing} onClose={() => setViewing(null)} /> : null}
    </Stack>
  );
}
