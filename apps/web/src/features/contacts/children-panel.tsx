import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconListCheck, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { childFormSchema, type ChildFormValues } from '@lampstand/api/schemas/contacts';
import { ageFromDateOfBirth, dmyToIso, formatAgeRange, isoToDmy } from '@lampstand/api/shared/contacts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { errorMessage } from '../../lib/errors';
import { type Child, type Contact } from './labels';
import { formatDate } from '../../ui/format';

export function ChildForm({ contact, child, onDone }: { contact: Contact; child?: Child; onDone: () => void }) {
  const utils = trpc.useUtils();
  const groups = trpc.childGroups.list.useQuery();
  const form = useForm<ChildFormValues>({
    mode: 'controlled',
    initialValues: {
      name: child?.name ?? '',
      dateOfBirth: isoToDmy(child?.dateOfBirth),
      age: child?.age != null && !child.dateOfBirth ? String(child.age) : '',
      groupId: child?.groupId != null ? String(child.groupId) : '',
      notes: child?.notes ?? '',
    },
    validate: schemaResolver(childFormSchema, { sync: true }),
  });
  // With a date of birth the age is worked out (and never goes stale); without one it is typed.
  const dob = dmyToIso(form.values.dateOfBirth);
  const computedAge = dob ? ageFromDateOfBirth(dob) : null;
  const done = async () => {
    await utils.children.list.invalidate({ id: contact.id });
    onDone();
  };
  const add = useSave(trpc.children.add, { success: 'Child added', errorTitle: 'Error adding child', onSuccess: done });
  const update = useSave(trpc.children.update, {
    success: 'Child updated',
    errorTitle: 'Error updating child',
    onSuccess: done,
  });
  const submit = form.onSubmit((v) => {
    const parsed = childFormSchema.parse(v);
    const payload = { ...parsed, age: parsed.dateOfBirth ? null : parsed.age, notes: parsed.notes ?? '' };
    if (child) update.mutate({ childId: child.id, ...payload });
    else add.mutate({ id: contact.id, ...payload });
  });
  return (
    <Paper withBorder p="sm" bg="gray.0">
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <TextInput label="Child's name" withAsterisk {...form.getInputProps('name')} />
          <Group grow align="flex-start">
            <TextInput label="Date of Birth" placeholder="DD/MM/YYYY" {...form.getInputProps('dateOfBirth')} />
            {computedAge != null ? (
              <TextInput label="Age" value={String(computedAge)} readOnly description="From the date of birth" />
            ) : (
              <TextInput label="Age" inputMode="numeric" {...form.getInputProps('age')} />
            )}
          </Group>
          <Select
            label="Group"
            placeholder={groups.data && groups.data.length === 0 ? 'No groups yet' : 'Choose a group'}
            clearable
            data={(groups.data ?? []).map((g) => ({
              value: String(g.id),
              label: `${g.name} ${formatAgeRange(g)}`.trim(),
            }))}
            {...form.getInputProps('groupId')}
          />
          <Textarea label="Notes" autosize minRows={2} {...form.getInputProps('notes')} />
          <Group justify="flex-end">
            <Button variant="default" size="sm" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" size="sm" loading={add.isPending || update.isPending}>
              {child ? 'Update Child' : 'Add Child'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

export function AddChildToList({ child }: { child: Child }) {
  const utils = trpc.useUtils();
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const [listId, setListId] = useState<string | null>(null);
  const smsLists = (lists.data ?? []).filter((l) => l.type === 'sms' || l.type === 'both');
  const add = useSave(trpc.children.addToList, {
    success: 'Child added to list',
    errorTitle: 'Error adding child to list',
    onSuccess: async () => {
      setListId(null);
      await utils.children.list.invalidate();
    },
  });
  if (lists.isSuccess && smsLists.length === 0) {
    return (
      <Text size="xs" c="dimmed">
        No SMS-compatible lists available
      </Text>
    );
  }
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <Select
        size="xs"
        label="Add to list"
        placeholder="Choose a list"
        data={smsLists.map((l) => ({
          value: String(l.id),
          label: child.listIds.includes(l.id) ? `${l.name} (added)` : l.name,
          disabled: child.listIds.includes(l.id),
        }))}
        value={listId}
        onChange={setListId}
      />
      <Button
        size="xs"
        variant="light"
        leftSection={<IconListCheck size={14} />}
        loading={add.isPending}
        onClick={() => {
          if (!listId) return add.fail('Please select a contact list.');
          add.mutate({ childId: child.id, listId: Number(listId) });
        }}
      >
        Add
      </Button>
    </Group>
  );
}

export function ChildrenPanel({ contact }: { contact: Contact }) {
  const children = trpc.children.list.useQuery({ id: contact.id });
  const [params, setParams] = useSearchParams();
  // ?action=add (from a link elsewhere) opens the add form.
  const wantsAdd = params.get('action') === 'add';
  const [adding, setAdding] = useState(wantsAdd);
  const [sawWantsAdd, setSawWantsAdd] = useState(wantsAdd);
  if (wantsAdd !== sawWantsAdd) {
    setSawWantsAdd(wantsAdd);
    if (wantsAdd) setAdding(true);
  }
  const [editing, setEditing] = useState<number | null>(null);
  const stopAdding = () => {
    setAdding(false);
    if (params.get('action')) {
      params.delete('action');
      setParams(params, { replace: true });
    }
  };
  const remove = useSave(trpc.children.remove, {
    success: 'Child removed',
    errorTitle: 'Error removing child',
    invalidate: (utils) => utils.children.list.invalidate({ id: contact.id }),
  });
  return (
    <Stack>
      {children.isLoading ? (
        <Loader size="sm" aria-label="Loading children" />
      ) : children.error ? (
        <Alert color="red" title="Error loading children">
          {errorMessage(children.error)}
        </Alert>
      ) : children.data && children.data.length > 0 ? (
        children.data.map((c) =>
          editing === c.id ? (
            <ChildForm key={c.id} contact={contact} child={c} onDone={() => setEditing(null)} />
          ) : (
            <Paper key={c.id} withBorder p="sm">
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={2}>
                  <Text fw={600}>{c.name}</Text>
                  <Text size="sm" c="dimmed">
                    {[c.dateOfBirth ? `Born ${formatDate(c.dateOfBirth)}` : null, c.age != null ? `Age ${c.age}` : null]
                      .filter(Boolean)
                      .join(' · ') || 'No date of birth'}
                  </Text>
                  {c.group ? (
                    <Text size="sm">
                      {c.group.name} {formatAgeRange(c.group)}
                    </Text>
                  ) : null}
                  {c.notes ? <Text size="sm">{c.notes}</Text> : null}
                  <AddChildToList child={c} />
                </Stack>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon variant="subtle" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c.id)}>
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${c.name}`}
                    onClick={() => remove.mutate({ childId: c.id })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              </Group>
            </Paper>
          ),
        )
      ) : (
        <Text c="dimmed" size="sm">
          No children
        </Text>
      )}
      {adding ? (
        <ChildForm contact={contact} onDone={stopAdding} />
      ) : (
        <Group>
          <Button size="sm" variant="light" leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add Child
          </Button>
          <Anchor component={Link} to={`/contacts/detail/${contact.id}?tab=children&action=add`} size="sm">
            Open on its own page
          </Anchor>
        </Group>
      )}
    </Stack>
  );
}
