import {
  Button,
  CloseButton,
  Divider,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import type { z } from 'zod';
import { createMemberSchema, type TeamMember } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { formatDate } from '../../ui/format';
import { PLANNER_STALE_MS } from './planner-cache';
import { useContactSearch } from '../contacts/contact-search';
import type { Contact } from '../contacts/labels';
import { FormActions } from '../../ui/form-actions';

export type MemberInput = z.input<typeof createMemberSchema>;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th'];

/** A recurring blockout in words ('every 2nd Sunday', 'every other Sunday'). */
function repeatWords(r: NonNullable<TeamMember['blockouts'][number]['recurrence']>): string {
  if (r.every === 'weeks')
    return r.interval === 1 ? `every ${WEEKDAYS[r.weekday]}` : `every ${r.interval} weeks on ${WEEKDAYS[r.weekday]}`;
  return `every ${r.nth === -1 ? 'last' : ORDINALS[r.nth - 1]} ${WEEKDAYS[r.weekday]}`;
}

export function Blockouts({ member }: { member: TeamMember }) {
  const [startsOn, setStartsOn] = useState('');
  const [endsOn, setEndsOn] = useState('');
  const [reason, setReason] = useState('');
  const [repeat, setRepeat] = useState<string>('none');
  const [error, setError] = useState<string | null>(null);
  const weekday = startsOn ? new Date(`${startsOn}T00:00:00Z`).getUTCDay() : 0;
  const nth = startsOn ? Math.floor((Number(startsOn.slice(8, 10)) - 1) / 7) + 1 : 1;
  const refresh = (utils: SaveUtils) => utils.servicePlanner.members.invalidate();
  // A refused blockout says why under its first date, not in a toast.
  const add = useSave(trpc.servicePlanner.members.addBlockout, {
    errorTitle: 'Failed to add blockout',
    answer: (err) => {
      setError(errorMessage(err));
      return true;
    },
    invalidate: refresh,
    onSuccess: () => {
      setRepeat('none');
      setStartsOn('');
      setEndsOn('');
      setReason('');
      setError(null);
    },
  });
  const del = useSave(trpc.servicePlanner.members.deleteBlockout, {
    errorTitle: 'Failed to remove blockout',
    invalidate: refresh,
  });
  const save = () =>
    add.mutate({
      memberId: member.id,
      startsOn,
      endsOn: endsOn || startsOn,
      reason,
      recurrence:
        repeat === 'month'
          ? { every: 'month', nth: Math.min(nth, 5) as 1 | 2 | 3 | 4 | 5, weekday }
          : repeat === 'weeks2'
            ? { every: 'weeks', interval: 2, weekday }
            : null,
    });
  return (
    <Stack gap="xs">
      <Divider label="Blockout dates" labelPosition="left" />
      {member.blockouts.map((b) => (
        <Group key={b.id} justify="space-between">
          <Text size="sm">
            {formatDate(b.startsOn)}
            {b.endsOn !== b.startsOn ? ` – ${formatDate(b.endsOn)}` : ''}
            {b.recurrence ? ` · ${repeatWords(b.recurrence)}` : ''}
            {b.reason ? ` · ${b.reason}` : ''}
          </Text>
          <CloseButton
            aria-label={`Remove blockout from ${formatDate(b.startsOn)}`}
            onClick={() => del.mutate({ id: b.id })}
          />
        </Group>
      ))}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label="From"
          type="date"
          value={startsOn}
          onChange={(e) => setStartsOn(e.currentTarget.value)}
          error={error}
        />
        <TextInput label="To" type="date" value={endsOn} onChange={(e) => setEndsOn(e.currentTarget.value)} />
        <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
      </SimpleGrid>
      <Select
        label="Repeats"
        description="A pattern inside the dates above: leave To far ahead for 'until then'."
        allowDeselect={false}
        value={repeat}
        onChange={(v) => setRepeat(v ?? 'none')}
        data={[
          { value: 'none', label: 'Every day in the range' },
          {
            value: 'month',
            label: startsOn
              ? `The ${ORDINALS[Math.min(nth, 5) - 1]} ${WEEKDAYS[weekday]} of each month`
              : 'Monthly on that weekday',
          },
          {
            value: 'weeks2',
            label: startsOn ? `Every other ${WEEKDAYS[weekday]}` : 'Every other week on that weekday',
          },
        ]}
      />
      <Group justify="flex-end">
        <Button size="xs" variant="light" onClick={save} loading={add.isPending} disabled={!startsOn}>
          Add Blockout
        </Button>
      </Group>
    </Stack>
  );
}

export function MemberModal({ member, onClose }: { member?: TeamMember; onClose: () => void }) {
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const [linked, setLinked] = useState<Contact | null>(null);
  const contacts = useContactSearch({ enabled: !member, chosen: linked, nothingFound: 'No contacts found' });
  const members = trpc.servicePlanner.members.list.useQuery({}, { enabled: !!member });
  const current = members.data?.find((m) => m.id === member?.id) ?? member;
  const form = useForm<MemberInput>({
    mode: 'controlled',
    initialValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      phone: member?.phone ?? '',
      notes: member?.notes ?? '',
      isActive: member?.isActive ?? true,
      contactId: member?.contactId ?? null,
      positionIds: member?.positions.map((p) => p.id) ?? [],
      maxPerMonth: member?.maxPerMonth ?? null,
      scheduleWithHousehold: member?.scheduleWithHousehold ?? false,
    },
    validate: schemaResolver(createMemberSchema, { sync: true }),
  });
  const saved = {
    invalidate: (utils: SaveUtils) => utils.servicePlanner.members.invalidate(),
    form,
    onSuccess: onClose,
  };
  const create = useSave(trpc.servicePlanner.members.create, {
    ...saved,
    success: 'Team member added',
    errorTitle: 'Failed to add team member',
  });
  const update = useSave(trpc.servicePlanner.members.update, {
    ...saved,
    success: 'Team member updated',
    errorTitle: 'Failed to update team member',
  });
  const save = (values: MemberInput) => {
    if (!member) return create.mutate(values);
    const name = typeof values.name === 'string' && values.name ? values.name : member.name;
    update.mutate({ id: member.id, ...values, name });
  };
  return (
    <Modal opened onClose={onClose} title={member ? 'Edit Team Member' : 'Add Team Member'} size="lg">
      <form onSubmit={form.onSubmit(save)} noValidate>
        <Stack>
          {!member ? (
            <Select
              label="Link to a contact"
              description="Optional: their name, email and phone fill in from the contact."
              placeholder="Search contacts"
              clearable
              {...contacts.selectProps}
              value={typeof form.values.contactId === 'number' ? String(form.values.contactId) : null}
              onChange={(v) => {
                form.setFieldValue('contactId', v ? Number(v) : null);
                const c = contacts.byValue(v);
                setLinked(c);
                if (c) {
                  if (!form.values.name) form.setFieldValue('name', `${c.firstName} ${c.lastName}`.trim());
                  if (!form.values.email && c.email) form.setFieldValue('email', c.email);
                  if (!form.values.phone && c.phone) form.setFieldValue('phone', c.phone);
                }
              }}
            />
          ) : null}
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Email" type="email" {...form.getInputProps('email')} />
            <TextInput label="Phone" {...form.getInputProps('phone')} />
          </SimpleGrid>
          <MultiSelect
            label="Positions"
            description="What they can do"
            searchable
            data={(positions.data ?? []).map((p) => ({
              value: String(p.id),
              label: p.category ? `${p.category}: ${p.name}` : p.name,
            }))}
            value={(form.values.positionIds ?? []).map(String)}
            onChange={(v) => form.setFieldValue('positionIds', v.map(Number))}
          />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label="Most times a month"
              description="Auto-schedule keeps to it; empty for no limit."
              min={1}
              max={31}
              allowDecimal={false}
              {...form.getInputProps('maxPerMonth')}
              value={form.values.maxPerMonth ?? ''}
              onChange={(v) => form.setFieldValue('maxPerMonth', v === '' ? null : Number(v))}
            />
            <Switch
              mt={{ sm: 'xl' }}
              label="Schedule with my household"
              description="On the same plans as family members who serve."
              {...form.getInputProps('scheduleWithHousehold', { type: 'checkbox' })}
            />
          </SimpleGrid>
          <Switch label="Active" {...form.getInputProps('isActive', { type: 'checkbox' })} />
          {current ? <Blockouts member={current} /> : null}
          <FormActions
            onCancel={onClose}
            submit={member ? 'Save Member' : 'Add Member'}
            saving={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
