import { Modal, NumberInput, Select, SimpleGrid, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import type { z } from 'zod';
import { createSongSchema, type Song } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { KEY_OPTIONS } from './bits';
import { FormActions } from '../../ui/form-actions';

export type SongInput = z.input<typeof createSongSchema>;

export function SongFormModal({ song, onClose }: { song?: Song; onClose: () => void }) {
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
  const saved = { invalidate: (utils: SaveUtils) => utils.servicePlanner.songs.invalidate(), form, onSuccess: onClose };
  const create = useSave(trpc.servicePlanner.songs.create, {
    ...saved,
    success: 'Song added',
    errorTitle: 'Failed to add song',
  });
  const update = useSave(trpc.servicePlanner.songs.update, {
    ...saved,
    success: 'Song updated',
    errorTitle: 'Failed to update song',
  });
  const save = (values: SongInput) => (song ? update.mutate({ id: song.id, ...values }) : create.mutate(values));
  return (
    <Modal opened onClose={onClose} title={song ? 'Edit Song' : 'Add Song'} size="xl">
      <form onSubmit={form.onSubmit(save)} noValidate>
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
          <FormActions
            onCancel={onClose}
            submit={song ? 'Save Song' : 'Add Song'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
