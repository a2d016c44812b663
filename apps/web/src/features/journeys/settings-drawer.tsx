import {
  Button,
  Checkbox,
  Drawer,
  Group,
  NumberInput,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { z } from 'zod';
import {
  CONTACT_SOURCE_LABELS,
  entryRuleSchema,
  journeyGoalSchema,
  journeyNameSchema,
  journeyTriggerSchema,
  type JourneyFields,
} from '@lampstand/api/schemas/journeys';
import { describeTrigger } from '@lampstand/api/shared/journeys';
import { trpc } from '../../lib/trpc';
import { confirmDiscard } from '../../ui/confirm';
import { TagPicker, Words, type JourneyRefs } from './journey-refs';

/** The journey's own fields (its steps are edited in the flow). */
const settingsSchema = z.object({
  name: journeyNameSchema,
  description: z.string().trim().max(2000, 'Description must be at most 2000 characters'),
  trigger: journeyTriggerSchema,
  entryRule: entryRuleSchema,
  goal: journeyGoalSchema,
});
export type JourneySettings = Omit<JourneyFields, 'steps'>;
type Values = Record<string, unknown> & { trigger: { kind: string } & Record<string, unknown> };

const validate = schemaResolver(settingsSchema, { sync: true });

const TRIGGER_KINDS = [
  { value: 'signup_confirmed', label: 'Someone signs up on a landing page' },
  { value: 'list_added', label: 'Someone is added to a list' },
  { value: 'donation_succeeded', label: 'Someone gives' },
  { value: 'contact_created', label: 'A contact is created' },
  { value: 'date', label: 'Their birthday (yearly at 9:00)' },
  { value: 'keyword', label: 'Someone texts a keyword' },
  { value: 'group_joined', label: 'Someone joins a group' },
  { value: 'group_join_requested', label: 'Someone asks to join a group' },
  { value: 'group_missed', label: 'A member misses meetings of their group in a row' },
  { value: 'event_registered', label: 'Someone registers for an event' },
  { value: 'event_attended', label: 'Someone attends an event (checked in)' },
  { value: 'event_missed', label: 'Someone registered does not attend an event' },
  { value: 'manual', label: 'Only when you enrol people' },
];

const TRIGGER_DEFAULTS: Record<string, Record<string, unknown>> = {
  list_added: { kind: 'list_added', listId: null },
  signup_confirmed: { kind: 'signup_confirmed', pageId: null },
  donation_succeeded: { kind: 'donation_succeeded', firstGiftOnly: false, projectId: null, fundId: null },
  contact_created: { kind: 'contact_created', source: null },
  date: { kind: 'date', field: 'birthday' },
  keyword: { kind: 'keyword', keyword: '' },
  group_joined: { kind: 'group_joined', groupId: null },
  group_join_requested: { kind: 'group_join_requested', groupId: null },
  group_missed: { kind: 'group_missed', groupId: null, count: 3 },
  event_registered: { kind: 'event_registered', eventId: null },
  event_attended: { kind: 'event_attended', eventId: null },
  event_missed: { kind: 'event_missed', eventId: null },
  manual: { kind: 'manual' },
};

const ANY = 'any';

/** Trigger, who may enter again, and the goal, in a side sheet; 'Apply' puts them in the editor. */
export function SettingsDrawer({
  settings,
  refs,
  onApply,
  onClose,
}: {
  settings: JourneySettings;
  refs: JourneyRefs;
  onApply: (s: JourneySettings) => void;
  onClose: () => void;
}) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: settings,
    validate,
  });
  const v = form.values;
  const t = v.trigger;
  const entry = v.entryRule as { kind: string; days?: number };
  const goal = v.goal as { kind: string; listId?: number; tag?: string } | null;
  const idSelect = (path: string, value: unknown, anyLabel?: string) => ({
    value: typeof value === 'number' && value > 0 ? String(value) : anyLabel ? ANY : null,
    onChange: (id: string | null) => form.setFieldValue(path, id && id !== ANY ? Number(id) : null),
    error: form.errors[path],
    allowDeselect: false,
  });
  const close = () =>
    form.isDirty() ? confirmDiscard({ what: 'the journey’s settings', onDiscard: onClose }) : onClose();
  const parsedTrigger = journeyTriggerSchema.safeParse(t);
  return (
    <Drawer
      opened
      onClose={close}
      position="right"
      size={520}
      title={
        <Text fw={600} component="h2" size="lg" m={0}>
          Trigger and settings
        </Text>
      }
    >
      <form
        onSubmit={form.onSubmit((values) => {
          const parsed = settingsSchema.safeParse(values);
          if (parsed.success) onApply({ ...parsed.data, description: parsed.data.description });
        })}
      >
        <Stack>
          <TextInput label="Journey name" withAsterisk {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label="Start the journey when"
            withAsterisk
            allowDeselect={false}
            data={TRIGGER_KINDS}
            value={t.kind}
            onChange={(kind) => kind && form.setFieldValue('trigger', TRIGGER_DEFAULTS[kind] as Values['trigger'])}
            error={form.errors.trigger}
          />
          {t.kind === 'list_added' ? (
            <Select
              label="List"
              withAsterisk
              data={refs.lists}
              placeholder="Choose a list"
              {...idSelect('trigger.listId', t.listId)}
            />
          ) : null}
          {t.kind === 'signup_confirmed' ? (
            <Select
              label="Landing page"
              data={[{ value: ANY, label: 'Any landing page' }, ...refs.pages]}
              {...idSelect('trigger.pageId', t.pageId, 'any')}
            />
          ) : null}
          {t.kind === 'donation_succeeded' ? (
            <>
              <Checkbox
                label="Only a person’s first gift ever"
                checked={Boolean(t.firstGiftOnly)}
                onChange={(e) => form.setFieldValue('trigger.firstGiftOnly', e.currentTarget.checked)}
              />
              <Select
                label="Project"
                data={[{ value: ANY, label: 'Any project' }, ...refs.projects]}
                {...idSelect('trigger.projectId', t.projectId, 'any')}
              />
              <Select
                label="Fund"
                data={[{ value: ANY, label: 'Any fund' }, ...refs.funds]}
                {...idSelect('trigger.fundId', t.fundId, 'any')}
              />
            </>
          ) : null}
          {t.kind === 'contact_created' ? (
            <Select
              label="Created from"
              allowDeselect={false}
              data={[
                { value: ANY, label: 'Anywhere' },
                ...Object.entries(CONTACT_SOURCE_LABELS).map(([value, label]) => ({ value, label })),
              ]}
              value={(t.source as string | null) ?? ANY}
              onChange={(s) => form.setFieldValue('trigger.source', s && s !== ANY ? s : null)}
            />
          ) : null}
          {t.kind === 'group_joined' || t.kind === 'group_join_requested' || t.kind === 'group_missed' ? (
            <Select
              label="Group"
              data={[{ value: ANY, label: 'Any group' }, ...refs.groups]}
              {...idSelect('trigger.groupId', t.groupId, 'any')}
            />
          ) : null}
          {t.kind === 'group_missed' ? (
            <NumberInput
              label="Meetings missed in a row"
              description="They enter when the attendance that makes this many is recorded."
              min={1}
              max={12}
              {...form.getInputProps('trigger.count')}
            />
          ) : null}
          {typeof t.kind === 'string' && t.kind.startsWith('event_') ? (
            <EventSelect value={t.eventId} onChange={(id) => form.setFieldValue('trigger.eventId', id)} />
          ) : null}
          {t.kind === 'keyword' ? (
            <TextInput
              label="Keyword"
              description="When two-way texting is on, a text with this word starts the journey."
              {...form.getInputProps('trigger.keyword')}
            />
          ) : null}
          {parsedTrigger.success ? (
            <Words text={describeTrigger(parsedTrigger.data, refs.names)} size="sm" c="dimmed" />
          ) : null}

          <Radio.Group
            label="Who may enter"
            value={entry.kind}
            onChange={(kind) => form.setFieldValue('entryRule', kind === 'again_after' ? { kind, days: 30 } : { kind })}
          >
            <Stack gap="xs" mt="xs">
              <Radio value="once" label="Once per person, ever" />
              <Radio value="again_after" label="Again after a number of days" />
              <Radio value="every_time" label="Every time the trigger happens" />
            </Stack>
          </Radio.Group>
          {entry.kind === 'again_after' ? (
            <NumberInput
              label="Days before they may enter again"
              min={1}
              max={3650}
              {...form.getInputProps('entryRule.days')}
            />
          ) : null}

          <Select
            label="Goal"
            description="Reaching it takes a person out of the journey, counted as converted."
            allowDeselect={false}
            data={[
              { value: 'none', label: 'No goal' },
              { value: 'joined_list', label: 'Joined a list' },
              { value: 'gave', label: 'Gave' },
              { value: 'tag_added', label: 'A tag was added' },
              { value: 'renewed_giving', label: 'Set up their recurring gift again' },
            ]}
            value={goal?.kind ?? 'none'}
            onChange={(kind) =>
              form.setFieldValue(
                'goal',
                kind === 'joined_list'
                  ? { kind, listId: 0 }
                  : kind === 'tag_added'
                    ? { kind, tag: '' }
                    : kind === 'gave' || kind === 'renewed_giving'
                      ? { kind }
                      : null,
              )
            }
          />
          {goal?.kind === 'joined_list' ? (
            <Select
              label="Goal list"
              withAsterisk
              data={refs.lists}
              placeholder="Choose a list"
              {...idSelect('goal.listId', goal.listId)}
            />
          ) : null}
          {goal?.kind === 'tag_added' ? (
            <TagPicker label="Goal tag" withAsterisk tags={refs.tags} {...form.getInputProps('goal.tag')} />
          ) : null}

          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit">Apply</Button>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}

/** A calendar event trigger's event: one of the church's events, or any. */
function EventSelect({ value, onChange }: { value: unknown; onChange: (id: number | null) => void }) {
  const events = trpc.calendar.list.useQuery({ status: 'all' });
  return (
    <Select
      label="Event"
      allowDeselect={false}
      data={[
        { value: 'any', label: 'Any event' },
        ...(events.data ?? []).map((e) => ({ value: String(e.id), label: e.title })),
      ]}
      value={typeof value === 'number' ? String(value) : 'any'}
      onChange={(v) => onChange(v && v !== 'any' ? Number(v) : null)}
    />
  );
}
