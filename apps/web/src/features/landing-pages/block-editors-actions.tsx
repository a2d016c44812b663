import { Checkbox, Group, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { CtaLink } from '@lampstand/api/schemas/landing-pages';
import { SIGNUP_FIELDS } from '@lampstand/api/schemas/landing-pages';
import { trpc } from '../../lib/trpc';
import { type Of, type EditorProps, AiField } from './block-editor-parts';

export function CtaEditor({ block, onChange, blocks }: EditorProps<'cta'>) {
  const forms = blocks.filter((b): b is Of<'signup'> => b.type === 'signup');
  const kind = block.link?.kind ?? 'none';
  const setLink = (link: CtaLink | null) => onChange({ ...block, link });
  return (
    <Stack gap="sm">
      <AiField
        label="Button text"
        section="callToAction"
        value={block.text}
        onChange={(text) => onChange({ ...block, text })}
      />
      <Select
        label="The button goes to"
        allowDeselect={false}
        data={[
          { value: 'signup', label: 'A sign-up form on this page' },
          { value: 'showup', label: 'A Show Up project' },
          { value: 'give', label: 'Our giving page' },
          { value: 'url', label: 'A web address' },
          { value: 'none', label: 'The first sign-up form, if any' },
        ]}
        value={kind}
        onChange={(v) =>
          setLink(
            v === 'signup' && forms[0]
              ? { kind: 'signup', blockId: forms[0].id }
              : v === 'showup'
                ? { kind: 'showup', projectId: 1 }
                : v === 'give'
                  ? { kind: 'give', fundId: null }
                  : v === 'url'
                    ? { kind: 'url', url: 'https://' }
                    : null,
          )
        }
      />
      {block.link?.kind === 'signup' && (
        <Select
          label="Sign-up form"
          allowDeselect={false}
          data={forms.map((f, i) => ({ value: f.id, label: f.title || `Sign-up form ${i + 1}` }))}
          value={block.link.blockId}
          onChange={(v) => v && setLink({ kind: 'signup', blockId: v })}
        />
      )}
      {kind === 'signup' && forms.length === 0 && (
        <Text size="sm" c="dimmed">
          Add a sign-up form block to this page first.
        </Text>
      )}
      {block.link?.kind === 'showup' && (
        <NumberInput
          label="Show Up project number"
          min={1}
          allowDecimal={false}
          value={block.link.projectId}
          onChange={(v) => setLink({ kind: 'showup', projectId: Number(v) || 1 })}
        />
      )}
      {block.link?.kind === 'give' && (
        <GiveFundSelect fundId={block.link.fundId} onChange={(fundId) => setLink({ kind: 'give', fundId })} />
      )}
      {block.link?.kind === 'url' && (
        <TextInput
          label="Web address"
          value={block.link.url}
          onChange={(e) => setLink({ kind: 'url', url: e.currentTarget.value })}
        />
      )}
    </Stack>
  );
}

export function EventEditor({ block, onChange }: EditorProps<'event'>) {
  const set = (patch: Partial<Of<'event'>>) => onChange({ ...block, ...patch });
  return (
    <Stack gap="sm">
      <TextInput label="Event title" value={block.title} onChange={(e) => set({ title: e.currentTarget.value })} />
      <Group grow align="flex-start">
        <TextInput
          label="Date"
          type="date"
          value={block.date ?? ''}
          onChange={(e) => set({ date: e.currentTarget.value || null })}
        />
        <TextInput
          label="Starts"
          type="time"
          value={block.startTime ?? ''}
          onChange={(e) => set({ startTime: e.currentTarget.value || null })}
        />
        <TextInput
          label="Ends"
          type="time"
          value={block.endTime ?? ''}
          onChange={(e) => set({ endTime: e.currentTarget.value || null })}
        />
      </Group>
      <TextInput label="Place" value={block.place} onChange={(e) => set({ place: e.currentTarget.value })} />
      <TextInput label="Address" value={block.address} onChange={(e) => set({ address: e.currentTarget.value })} />
      <TextInput
        label="Map link"
        description="Optional, e.g. a Google Maps or OpenStreetMap link"
        value={block.mapUrl}
        onChange={(e) => set({ mapUrl: e.currentTarget.value })}
      />
    </Stack>
  );
}

export function ShowUpEditor({ block, onChange }: EditorProps<'showup'>) {
  return (
    <NumberInput
      label="Show Up project number"
      description="The page shows a card linking to this project"
      min={1}
      allowDecimal={false}
      value={block.projectId ?? ''}
      onChange={(v) => onChange({ ...block, projectId: v === '' ? null : Number(v) })}
    />
  );
}

export function GroupsEditor({ block, onChange }: EditorProps<'groups'>) {
  const set = (patch: Partial<Of<'groups'>>) => onChange({ ...block, ...patch });
  return (
    <Stack gap="sm">
      <TextInput label="Title" value={block.title} onChange={(e) => set({ title: e.currentTarget.value })} />
      <TextInput
        label="Only groups of this type"
        description="For example Small group; empty: every group taking new members"
        value={block.groupType}
        onChange={(e) => set({ groupType: e.currentTarget.value })}
      />
    </Stack>
  );
}

export function RegisterEditor({ block, onChange }: EditorProps<'register'>) {
  const events = trpc.calendar.list.useQuery({ status: 'published' });
  return (
    <Stack gap="sm">
      <Select
        label="Event"
        description="The page shows the event's date and a button to its registration form"
        placeholder="Choose a published event"
        searchable
        data={(events.data ?? []).map((e) => ({ value: String(e.id), label: e.title }))}
        value={block.eventId === null ? null : String(block.eventId)}
        onChange={(v) => onChange({ ...block, eventId: v ? Number(v) : null })}
      />
      <TextInput
        label="Button text"
        value={block.buttonText}
        onChange={(e) => onChange({ ...block, buttonText: e.currentTarget.value })}
      />
    </Stack>
  );
}

export const FIELD_LABELS: Record<(typeof SIGNUP_FIELDS)[number], string> = {
  phone: 'Phone',
  city: 'City',
  postalCode: 'Postal code',
};

export function SignupEditor({ block, onChange }: EditorProps<'signup'>) {
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const set = (patch: Partial<Of<'signup'>>) => onChange({ ...block, ...patch });
  return (
    <Stack gap="sm">
      <TextInput label="Form title" value={block.title} onChange={(e) => set({ title: e.currentTarget.value })} />
      <Textarea
        label="Form description"
        autosize
        minRows={2}
        value={block.description}
        onChange={(e) => set({ description: e.currentTarget.value })}
      />
      <TextInput
        label="Button text"
        value={block.buttonText}
        onChange={(e) => set({ buttonText: e.currentTarget.value })}
      />
      <Select
        label="Add people to the list"
        description="Everyone who signs up becomes a contact of your church and joins this list"
        placeholder="No list"
        clearable
        data={(lists.data ?? []).map((l) => ({ value: String(l.id), label: l.name }))}
        value={block.listId ? String(block.listId) : null}
        onChange={(v) => set({ listId: v ? Number(v) : null })}
      />
      <Checkbox.Group
        label="Also ask for"
        description="Name and email are always asked"
        value={block.fields}
        onChange={(v) => set({ fields: v })}
      >
        <Group mt="xs">
          {SIGNUP_FIELDS.map((f) => (
            <Checkbox key={f} value={f} label={FIELD_LABELS[f]} />
          ))}
        </Group>
      </Checkbox.Group>
    </Stack>
  );
}

/** The fund a giving-page button chooses: one of the church's public active funds, or the donor's choice. */
function GiveFundSelect({ fundId, onChange }: { fundId: number | null; onChange: (fundId: number | null) => void }) {
  const funds = trpc.funds.list.useQuery({ status: 'active' });
  return (
    <Select
      label="Fund"
      description="The giving page opens with this fund chosen; the donor can change it."
      placeholder="The donor chooses"
      clearable
      data={(funds.data ?? []).filter((f) => f.isPublic).map((f) => ({ value: String(f.id), label: f.name }))}
      value={fundId === null ? null : String(fundId)}
      onChange={(v) => onChange(v ? Number(v) : null)}
    />
  );
}
