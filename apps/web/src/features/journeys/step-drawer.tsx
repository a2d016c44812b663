import '@mantine/dates/styles.css';
import {
  Alert,
  Button,
  Checkbox,
  Drawer,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { TimeInput } from '@mantine/dates';
import { schemaResolver, useForm, type UseFormReturnType } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { journeyStepSchema, type JourneyStep } from '@lampstand/api/schemas/journeys';
import { trpc } from '../../lib/trpc';
import { confirmDiscard } from '../../ui/confirm';
import { SmsTextCount } from '../campaigns/sms-text-count';
import { ContentEditor } from '../email-campaigns/wizard-content-editor';
import { TagPicker, type JourneyRefs } from './journey-refs';
import { CONDITION_LABELS, stepKind, WEEKDAY_OPTIONS } from './step-kinds';

// The form holds a step of any kind loosely; the shared step schema checks it (messages written once).
type Values = Record<string, unknown>;
type Form = UseFormReturnType<Values>;

const validate = schemaResolver(journeyStepSchema, { sync: true });
const ME = 'me';
const text = (v: unknown) => (typeof v === 'string' ? v : '');
const idText = (v: unknown) => (typeof v === 'number' && v > 0 ? String(v) : null);

/** A step's fields in a drawer: 'Save step' puts them back in the flow (the journey is saved with Save). */
export function StepDrawer({
  step,
  number,
  isNew,
  serverError,
  refs,
  onSave,
  onRemove,
  onClose,
}: {
  step: JourneyStep;
  number: number;
  /** Added from a '+': it joins the flow on 'Save step'. */
  isNew: boolean;
  /** What the server said about this step ('Step 3: the email has no content'). */
  serverError?: string;
  refs: JourneyRefs;
  onSave: (step: JourneyStep) => void;
  onRemove: () => void;
  onClose: () => void;
}) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: step, validate });
  const kind = stepKind(step.kind);
  const close = () => (form.isDirty() ? confirmDiscard({ what: `step ${number}`, onDiscard: onClose }) : onClose());
  return (
    <Drawer
      opened
      onClose={close}
      position="right"
      size={step.kind === 'email' ? 720 : 520}
      title={
        <Text fw={600} component="h2" size="lg" m={0}>
          {isNew ? `New step: ${kind.label}` : `Step ${number}: ${kind.label}`}
        </Text>
      }
    >
      <form
        onSubmit={form.onSubmit((v) => {
          const parsed = journeyStepSchema.safeParse(v);
          if (parsed.success) onSave(parsed.data);
        })}
      >
        <Stack>
          {serverError ? (
            <Alert color="red" title="This step cannot run yet">
              {serverError}
            </Alert>
          ) : null}
          <StepFields form={form} refs={refs} />
          <Group justify="space-between" mt="md">
            {isNew ? (
              <span />
            ) : (
              <Button variant="subtle" color="red" leftSection={<IconTrash size={18} />} onClick={onRemove}>
                Remove step
              </Button>
            )}
            <Group gap="xs">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit">{isNew ? 'Add step' : 'Save step'}</Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Drawer>
  );
}

function StepFields({ form, refs }: { form: Form; refs: JourneyRefs }) {
  const v = form.values;
  switch (v.kind as JourneyStep['kind']) {
    case 'wait':
      return <WaitFields form={form} />;
    case 'email':
      return <EmailFields form={form} />;
    case 'sms':
      return (
        <>
          <TextInput
            label="Name"
            description="How the Activity and the flow name this text"
            withAsterisk
            {...form.getInputProps('name')}
          />
          <Textarea label="Message" autosize minRows={4} {...form.getInputProps('body')} />
          <SmsTextCount content={text(v.body)} />
          <Text size="xs" c="dimmed">
            Merge tags: {'{{firstName}}'}, {'{{lastName}}'}, {'{{churchName}}'}. Texts are never sent between 21:00 and
            8:00 in the church’s time zone; one due then waits for 8:00.
          </Text>
        </>
      );
    case 'add_to_list':
    case 'remove_from_list':
      return (
        <Select
          label="List"
          withAsterisk
          placeholder={refs.lists.length ? 'Choose a list' : 'No lists yet'}
          data={refs.lists}
          {...listProps(form, 'listId')}
        />
      );
    case 'add_tag':
      return <TagPicker label="Tag" withAsterisk tags={refs.tags} {...form.getInputProps('tag')} />;
    case 'task':
      return (
        <>
          <TextInput label="Task title" withAsterisk {...form.getInputProps('title')} />
          <Textarea label="Notes" autosize minRows={3} {...form.getInputProps('notes')} />
          <NumberInput label="Due in (days)" min={0} max={365} {...form.getInputProps('dueInDays')} />
          <Select
            label="Assign to"
            description="They get an email with the task; it shows on the Tasks page."
            data={[{ value: ME, label: 'Me (the church account)' }, ...refs.staff]}
            value={idText(v.assigneeContactId) ?? ME}
            onChange={(id) => form.setFieldValue('assigneeContactId', id && id !== ME ? Number(id) : null)}
            allowDeselect={false}
            error={form.errors.assigneeContactId}
          />
          <Checkbox
            label="To the group’s leader when a group started the journey"
            description="Joined a group, asked to join, or missed meetings: the group’s first leader with an email."
            checked={Boolean(v.toGroupLeader)}
            onChange={(e) => form.setFieldValue('toGroupLeader', e.currentTarget.checked)}
          />
          <MergeTagNote />
        </>
      );
    case 'notify':
      return (
        <>
          <MultiSelect
            label="Staff to notify"
            description="Service staff with an email; none chosen: the church account."
            data={refs.staff}
            placeholder={(v.contactIds as number[]).length ? undefined : 'Me (the church account)'}
            value={(v.contactIds as number[]).map(String)}
            onChange={(ids) => form.setFieldValue('contactIds', ids.map(Number))}
            error={form.errors.contactIds}
            searchable
          />
          <TextInput label="Subject" withAsterisk {...form.getInputProps('subject')} />
          <Textarea label="Message" autosize minRows={3} {...form.getInputProps('message')} />
          <MergeTagNote />
        </>
      );
    case 'branch':
      return <BranchFields form={form} refs={refs} />;
    case 'exit':
      return <Text size="sm">People who reach this step leave the journey here.</Text>;
  }
}

const MergeTagNote = () => (
  <Text size="xs" c="dimmed">
    Merge tags name the person: {'{{firstName}}'}, {'{{lastName}}'}.
  </Text>
);

/** A Select over a numeric id field. */
function listProps(form: Form, path: string) {
  const value = path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], form.values);
  return {
    value: idText(value),
    onChange: (id: string | null) => form.setFieldValue(path, id ? Number(id) : 0),
    error: form.errors[path],
  };
}

function WaitFields({ form }: { form: Form }) {
  const wait = form.values.wait as { mode: 'duration' | 'until' | 'before_event' };
  return (
    <>
      <SegmentedControl
        aria-label="Wait for"
        value={wait.mode}
        onChange={(mode) =>
          form.setFieldValue(
            'wait',
            mode === 'duration' || mode === 'before_event'
              ? { mode, amount: 1, unit: 'days' }
              : { mode: 'until', weekday: 0, time: '09:00' },
          )
        }
        data={[
          { value: 'duration', label: 'For a while' },
          { value: 'until', label: 'Until a day and time' },
          { value: 'before_event', label: 'Until before the event' },
        ]}
      />
      {wait.mode === 'before_event' ? (
        <Text size="sm" c="dimmed">
          For journeys an event starts: the wait ends this long before the registration’s event time.
        </Text>
      ) : null}
      {wait.mode === 'duration' || wait.mode === 'before_event' ? (
        <Group grow align="flex-start">
          <NumberInput label="Wait" min={1} {...form.getInputProps('wait.amount')} />
          <Select
            label="Unit"
            allowDeselect={false}
            data={[
              { value: 'minutes', label: 'Minutes' },
              { value: 'hours', label: 'Hours' },
              { value: 'days', label: 'Days' },
              { value: 'weeks', label: 'Weeks' },
            ]}
            {...form.getInputProps('wait.unit')}
          />
        </Group>
      ) : (
        <Group grow align="flex-start">
          <Select
            label="Day"
            allowDeselect={false}
            data={WEEKDAY_OPTIONS}
            value={String((form.values.wait as { weekday: number }).weekday)}
            onChange={(d) => form.setFieldValue('wait.weekday', Number(d))}
          />
          <TimeInput label="Time" description="In the church’s time zone" {...form.getInputProps('wait.time')} />
        </Group>
      )}
      {form.errors.wait ? (
        <Text size="sm" c="red">
          {form.errors.wait}
        </Text>
      ) : null}
    </>
  );
}

function EmailFields({ form }: { form: Form }) {
  const templates = trpc.templates.list.useQuery();
  const emailTemplates = (templates.data ?? []).filter((t) => t.type === 'email');
  // The editor reads its content once: a template chosen later starts a fresh editor.
  const [editorKey, setEditorKey] = useState(0);
  const useTemplate = (id: string | null) => {
    const t = emailTemplates.find((x) => String(x.id) === id);
    if (!t) return;
    const apply = () => {
      const c = t.content as { subject?: string; html?: string };
      form.setValues({ templateId: t.id, subject: c.subject ?? form.values.subject, content: c.html ?? '' });
      setEditorKey((k) => k + 1);
    };
    if (
      text(form.values.content)
        .replace(/<[^>]*>/g, '')
        .trim()
    )
      confirmDiscard({ what: 'this email’s content (the template replaces it)', onDiscard: apply });
    else apply();
  };
  return (
    <>
      <TextInput
        label="Name"
        description="How the Activity and the flow name this email"
        withAsterisk
        {...form.getInputProps('name')}
      />
      <Select
        label="Start from a template"
        placeholder={emailTemplates.length ? 'Choose a template' : 'No email templates'}
        data={emailTemplates.map((t) => ({ value: String(t.id), label: t.name }))}
        value={idText(form.values.templateId)}
        onChange={useTemplate}
        clearable={false}
        disabled={emailTemplates.length === 0}
      />
      <TextInput label="Subject" placeholder="Welcome to {{churchName}}" {...form.getInputProps('subject')} />
      <ContentEditor
        key={editorKey}
        value={text(form.values.content)}
        onChange={(html) => form.setFieldValue('content', html)}
      />
      {form.errors.content ? (
        <Text size="sm" c="red">
          {form.errors.content}
        </Text>
      ) : null}
      <Text size="xs" c="dimmed">
        Every email ends with the campaign footer: the church’s address, unsubscribe and subscriptions links.
      </Text>
    </>
  );
}

function BranchFields({ form, refs }: { form: Form; refs: JourneyRefs }) {
  const c = form.values.condition as { kind: keyof typeof CONDITION_LABELS } | null;
  return (
    <>
      <Select
        label="Condition"
        withAsterisk
        placeholder="Choose a condition"
        data={Object.entries(CONDITION_LABELS).map(([value, label]) => ({ value, label }))}
        value={c?.kind ?? null}
        onChange={(kind) =>
          form.setFieldValue(
            'condition',
            kind === 'has_tag'
              ? { kind, tag: '' }
              : kind === 'on_list'
                ? { kind, listId: 0 }
                : kind === 'gave_within'
                  ? { kind, days: 30 }
                  : kind
                    ? { kind }
                    : null,
          )
        }
        error={form.errors.condition}
      />
      {c?.kind === 'has_tag' ? (
        <TagPicker label="Tag" withAsterisk tags={refs.tags} {...form.getInputProps('condition.tag')} />
      ) : null}
      {c?.kind === 'on_list' ? (
        <Select
          label="List"
          withAsterisk
          data={refs.lists}
          placeholder="Choose a list"
          {...listProps(form, 'condition.listId')}
        />
      ) : null}
      {c?.kind === 'gave_within' ? (
        <NumberInput label="Days" min={1} max={3650} {...form.getInputProps('condition.days')} />
      ) : null}
      <Text size="sm" c="dimmed">
        People who meet the condition take the yes path; the others take the no path.
      </Text>
    </>
  );
}
