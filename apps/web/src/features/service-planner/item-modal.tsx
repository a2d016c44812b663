import { Divider, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { createItemSchema, type PlanItem } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { KEY_OPTIONS } from './bits';
import { PLANNER_STALE_MS } from './planner-cache';
import { FormActions } from '../../ui/form-actions';

interface ItemFormValues {
  title: string;
  serviceItemTypeId: string | null;
  duration: number | string;
  description: string;
  notes: string;
  isRehearsalNeeded: boolean;
  songId: string | null;
  keySignature: string | null;
  arrangement: string;
  songNotes: string;
}

function toInput(v: ItemFormValues) {
  return {
    title: v.title,
    serviceItemTypeId: v.serviceItemTypeId ? Number(v.serviceItemTypeId) : null,
    duration: v.duration === '' ? 0 : v.duration,
    description: v.description,
    notes: v.notes,
    isRehearsalNeeded: v.isRehearsalNeeded,
    song: v.songId
      ? { songId: Number(v.songId), keySignature: v.keySignature, arrangement: v.arrangement, notes: v.songNotes }
      : null,
  };
}

/** Add or edit an item: its type, title, minutes, notes and (for songs) the song in its key for this plan. */
export function ItemModal({ planId, item, onClose }: { planId: number; item?: PlanItem; onClose: () => void }) {
  const types = trpc.servicePlanner.itemTypes.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const songs = trpc.servicePlanner.songs.list.useQuery({}, { staleTime: PLANNER_STALE_MS });
  const form = useForm<ItemFormValues>({
    mode: 'controlled',
    initialValues: {
      title: item?.title ?? '',
      serviceItemTypeId: item?.serviceItemTypeId ? String(item.serviceItemTypeId) : null,
      duration: item?.duration ?? 5,
      description: item?.description ?? '',
      notes: item?.notes ?? '',
      isRehearsalNeeded: item?.isRehearsalNeeded ?? false,
      songId: item?.song ? String(item.song.songId) : null,
      keySignature: item?.song?.keySignature ?? null,
      arrangement: item?.song?.arrangement ?? '',
      songNotes: item?.song?.notes ?? '',
    },
    validate: (values) => {
      const r = createItemSchema.safeParse({ planId, ...toInput(values) });
      if (r.success) return {};
      const errors: Record<string, string> = {};
      for (const i of r.error.issues) {
        const key =
          i.path[0] === 'song' ? (i.path[1] === 'keySignature' ? 'keySignature' : 'songId') : String(i.path[0]);
        errors[key] ??= i.message;
      }
      return errors;
    },
  });
  const isSongType = types.data?.find((t) => String(t.id) === form.values.serviceItemTypeId)?.name === 'Song';
  const chosenSong = songs.data?.find((s) => String(s.id) === form.values.songId);

  const saved = { invalidate: (utils: SaveUtils) => utils.servicePlanner.plans.invalidate(), onSuccess: onClose };
  const create = useSave(trpc.servicePlanner.items.create, {
    ...saved,
    success: 'Item added',
    errorTitle: 'Failed to add item',
  });
  const update = useSave(trpc.servicePlanner.items.update, {
    ...saved,
    success: 'Item updated',
    errorTitle: 'Failed to update item',
  });
  const save = (values: ItemFormValues) =>
    item ? update.mutate({ id: item.id, ...toInput(values) }) : create.mutate({ planId, ...toInput(values) });

  return (
    <Modal opened onClose={onClose} title={item ? 'Edit Item' : 'Add Item'} size="lg">
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Type"
              placeholder="Choose a type"
              clearable
              data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
              {...form.getInputProps('serviceItemTypeId')}
              onChange={(v: string | null) => {
                form.setFieldValue('serviceItemTypeId', v);
                const name = types.data?.find((t) => String(t.id) === v)?.name;
                if (name && !form.values.title) form.setFieldValue('title', name);
              }}
            />
            <NumberInput label="Duration (minutes)" min={0} max={600} {...form.getInputProps('duration')} />
          </SimpleGrid>
          <TextInput label="Title" withAsterisk {...form.getInputProps('title')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <Switch label="Rehearsal needed" {...form.getInputProps('isRehearsalNeeded', { type: 'checkbox' })} />
          {isSongType || form.values.songId ? (
            <>
              <Divider label="Song" labelPosition="left" />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label="Song"
                  placeholder="Choose from the library"
                  searchable
                  clearable
                  nothingFoundMessage="No songs found"
                  data={(songs.data ?? []).map((s) => ({
                    value: String(s.id),
                    label: s.artist ? `${s.title} (${s.artist})` : s.title,
                  }))}
                  {...form.getInputProps('songId')}
                  onChange={(v: string | null) => {
                    form.setFieldValue('songId', v);
                    const s = songs.data?.find((x) => String(x.id) === v);
                    if (s && (!form.values.title || form.values.title === 'Song')) form.setFieldValue('title', s.title);
                    if (s && !form.values.keySignature) form.setFieldValue('keySignature', s.keySignature);
                  }}
                />
                <Select
                  label="Key for this service"
                  description={chosenSong?.keySignature ? `Song's key: ${chosenSong.keySignature}` : undefined}
                  searchable
                  clearable
                  data={KEY_OPTIONS}
                  {...form.getInputProps('keySignature')}
                />
              </SimpleGrid>
              <TextInput label="Arrangement" placeholder="e.g. V1 C V2 C B C" {...form.getInputProps('arrangement')} />
              <TextInput label="Song notes" {...form.getInputProps('songNotes')} />
            </>
          ) : null}
          <FormActions
            onCancel={onClose}
            submit={item ? 'Save Item' : 'Add Item'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
