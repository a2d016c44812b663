import {
  Autocomplete,
  Button,
  Drawer,
  Group,
  NumberInput,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { createGroupSchema, GROUP_FREQUENCIES, GROUP_TYPES, JOIN_MODES, WEEKDAYS } from '@lampstand/api/schemas/groups';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { confirmDiscard } from '../../ui/confirm';
import { showFirstError } from '../../ui/first-error';
import { ImageUpload } from '../../ui/image-upload';
import { FREQUENCY_LABELS, JOIN_MODE_LABELS } from './group-words';
import { ContactsPicker, type PickedContact } from './leader-picker';

export type GroupDetail = RouterOutputs['groups']['get'];
/** The form's values as the inputs hold them; the shared schema reads them ('' is none). */
interface Values {
  name: string;
  type: string;
  description: string;
  imageUrl: string;
  frequency: (typeof GROUP_FREQUENCIES)[number];
  weekday: number | null;
  time: string;
  weekOfMonth: number;
  startsOn: string;
  address: string;
  area: string;
  areaPrecision: 'suburb' | 'none';
  latitude: number | string;
  longitude: number | string;
  tags: string[];
  capacity: number | string;
  joinMode: (typeof JOIN_MODES)[number];
  archived: boolean;
  leaderContactIds: number[];
}

const validate = schemaResolver(createGroupSchema, { sync: true });

function valuesOf(g?: GroupDetail): Values {
  return {
    name: g?.name ?? '',
    type: g?.type ?? 'Small group',
    description: g?.description ?? '',
    imageUrl: g?.imageUrl ?? '',
    frequency: g?.frequency ?? 'weekly',
    weekday: g?.weekday ?? null,
    time: g?.time ?? '',
    weekOfMonth: g?.weekOfMonth ?? 1,
    startsOn: g?.startsOn ?? '',
    address: g?.address ?? '',
    area: g?.area ?? '',
    areaPrecision: g?.areaPrecision ?? 'suburb',
    latitude: g?.latitude ?? '',
    longitude: g?.longitude ?? '',
    tags: g?.tags ?? [],
    capacity: g?.capacity ?? '',
    joinMode: g?.joinMode ?? 'request',
    archived: g?.archived ?? false,
    leaderContactIds: g?.leaders.map((l) => l.contactId) ?? [],
  };
}

/** New group, or Edit group: every field of a group in a side sheet, checked by the shared schema. */
export function GroupFormDrawer({ group, onClose }: { group?: GroupDetail; onClose: () => void }) {
  const navigate = useNavigate();
  const formId = useId();
  const showProblem = () => showFirstError(document.getElementById(formId));
  const form = useForm<Values>({ mode: 'controlled', initialValues: valuesOf(group), validate });
  const [leaders, setLeaders] = useState<PickedContact[]>(group?.leaders ?? []);
  const leadersChanged =
    leaders.map((l) => l.contactId).join() !== (group?.leaders ?? []).map((l) => l.contactId).join();
  const refresh = (u: SaveUtils) => [
    u.groups.list.invalidate(),
    u.groups.get.invalidate(),
    u.groups.members.invalidate(),
  ];
  const create = useSave(trpc.groups.create, {
    success: (g) => ['Group created', `${g.name} is ready: add its members.`],
    errorTitle: 'Failed to create group',
    form,
    fieldErrorsOnly: true,
    invalidate: refresh,
    onError: () => showProblem(),
    onSuccess: (g) => {
      onClose();
      return navigate(`/groups/${g.id}`);
    },
  });
  const update = useSave(trpc.groups.update, {
    success: 'Group saved',
    errorTitle: 'Failed to save group',
    form,
    fieldErrorsOnly: true,
    invalidate: refresh,
    onError: () => showProblem(),
    onSuccess: onClose,
  });
  // A leader added or removed is a membership saved first; its failure shows as the group's.
  const addMembers = useSave(trpc.groups.addMembers, {
    errorTitle: 'Failed to save group',
    onError: () => showProblem(),
  });
  const v = form.values;

  const submit = form.onSubmit(
    async (values) => {
      const fields = createGroupSchema.parse({ ...values, leaderContactIds: leaders.map((l) => l.contactId) });
      if (!group) return create.mutate(fields);
      const { leaderContactIds, ...rest } = fields;
      // Leaders are the group's members with the role leader: new ones join as leaders, removed ones stay as members.
      const before = group.leaders.map((l) => l.contactId);
      const added = leaderContactIds.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !leaderContactIds.includes(id));
      try {
        if (added.length) await addMembers.mutateAsync({ id: group.id, contactIds: added, role: 'leader' });
        if (removed.length) await addMembers.mutateAsync({ id: group.id, contactIds: removed, role: 'member' });
      } catch {
        return; // useSave has shown why
      }
      update.mutate({ id: group.id, ...rest });
    },
    () => showProblem(),
  );
  const close = (): void =>
    form.isDirty() || leadersChanged ? confirmDiscard({ what: 'this group', onDiscard: onClose }) : onClose();

  return (
    <Drawer opened onClose={close} position="right" size="lg" title={group ? `Edit ${group.name}` : 'New group'}>
      <form id={formId} onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Name" required {...form.getInputProps('name')} />
          <Autocomplete
            label="Type"
            description="Small group, class, team, or your own"
            data={[...GROUP_TYPES]}
            {...form.getInputProps('type')}
          />
          <Textarea label="Description" autosize minRows={3} {...form.getInputProps('description')} />
          <ImageUpload
            label="Image"
            description="Shown on the group finder"
            value={v.imageUrl ? { url: v.imageUrl } : null}
            onChange={(img) => form.setFieldValue('imageUrl', img?.url ?? '')}
          />
          <ContactsPicker
            label="Leaders"
            description="They see the roster and take attendance in the members' portal"
            value={leaders}
            onChange={setLeaders}
          />
          <Select
            label="How often"
            data={GROUP_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
            allowDeselect={false}
            {...form.getInputProps('frequency')}
          />
          {v.frequency !== 'by_arrangement' ? (
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <Select
                label="Day"
                required
                data={WEEKDAYS.map((d, i) => ({ value: String(i), label: d }))}
                {...form.getInputProps('weekday')}
                value={v.weekday === null ? null : String(v.weekday)}
                onChange={(x) => form.setFieldValue('weekday', x === null ? null : Number(x))}
              />
              <TextInput label="Time" type="time" {...form.getInputProps('time')} />
              {v.frequency === 'monthly' ? (
                <Select
                  label="Week of the month"
                  data={['First', 'Second', 'Third', 'Fourth', 'Last'].map((l, i) => ({
                    value: String(i + 1),
                    label: l,
                  }))}
                  {...form.getInputProps('weekOfMonth')}
                  value={String(v.weekOfMonth || 1)}
                  onChange={(x) => form.setFieldValue('weekOfMonth', Number(x ?? 1))}
                />
              ) : null}
              {v.frequency === 'every_other_week' ? (
                <TextInput
                  label="A day it meets"
                  description="The fortnight counts from it"
                  type="date"
                  {...form.getInputProps('startsOn')}
                />
              ) : null}
            </SimpleGrid>
          ) : null}
          <TextInput label="Address" description="Never shown on the group finder" {...form.getInputProps('address')} />
          <Radio.Group label="What the public sees of where it meets" {...form.getInputProps('areaPrecision')}>
            <Group mt="xs">
              <Radio value="suburb" label="The suburb (area) below" />
              <Radio value="none" label="Nothing" />
            </Group>
          </Radio.Group>
          {v.areaPrecision === 'suburb' ? (
            <>
              <TextInput label="Area (suburb)" {...form.getInputProps('area')} />
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <NumberInput label="Latitude of the area" decimalScale={6} {...form.getInputProps('latitude')} />
                <NumberInput label="Longitude of the area" decimalScale={6} {...form.getInputProps('longitude')} />
              </SimpleGrid>
            </>
          ) : null}
          <TagsInput
            label="Tags"
            description="Kid-friendly, a language, an age range: press Enter after each"
            {...form.getInputProps('tags')}
          />
          <NumberInput
            label="Capacity"
            description="Leave empty for no limit"
            min={1}
            {...form.getInputProps('capacity')}
          />
          <Radio.Group label="How people join" {...form.getInputProps('joinMode')}>
            <Stack gap={6} mt="xs">
              {JOIN_MODES.map((m) => (
                <Radio key={m} value={m} label={JOIN_MODE_LABELS[m]} />
              ))}
            </Stack>
          </Radio.Group>
          {group ? (
            <Switch
              label="Archived (hidden from the finder and the portal)"
              {...form.getInputProps('archived', { type: 'checkbox' })}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending || addMembers.isPending}>
              {group ? 'Save group' : 'Create group'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}
