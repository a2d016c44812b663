import {
  Badge,
  Button,
  Card,
  CloseButton,
  Divider,
  Grid,
  Group,
  Modal,
  MultiSelect,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconPlus, IconTrash, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import type { z } from 'zod';
import { createMemberSchema, positionFieldsSchema, type TeamMember } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { CardList, DataTable, RowActionsMenu } from '../../ui/data-table';
import { formatDate } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { PLANNER_STALE_MS } from './plans-tab';
import { useContactSearch } from '../contacts/contact-search';
import type { Contact } from '../contacts/labels';

type MemberInput = z.input<typeof createMemberSchema>;

function Blockouts({ member }: { member: TeamMember }) {
  const utils = trpc.useUtils();
  const add = trpc.servicePlanner.members.addBlockout.useMutation();
  const del = trpc.servicePlanner.members.deleteBlockout.useMutation();
  const [startsOn, setStartsOn] = useState('');
  const [endsOn, setEndsOn] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    try {
      await add.mutateAsync({ memberId: member.id, startsOn, endsOn: endsOn || startsOn, reason });
      await utils.servicePlanner.members.invalidate();
      setStartsOn('');
      setEndsOn('');
      setReason('');
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Stack gap="xs">
      <Divider label="Blockout dates" labelPosition="left" />
      {member.blockouts.map((b) => (
        <Group key={b.id} justify="space-between">
          <Text size="sm">
            {formatDate(b.startsOn)}
            {b.endsOn !== b.startsOn ? ` – ${formatDate(b.endsOn)}` : ''}
            {b.reason ? ` · ${b.reason}` : ''}
          </Text>
          <CloseButton
            aria-label={`Remove blockout from ${formatDate(b.startsOn)}`}
            onClick={() =>
              void del
                .mutateAsync({ id: b.id })
                .then(() => utils.servicePlanner.members.invalidate())
                .catch((err: unknown) => notifyError('Failed to remove blockout', errorMessage(err)))
            }
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
      <Group justify="flex-end">
        <Button size="xs" variant="light" onClick={() => void save()} loading={add.isPending} disabled={!startsOn}>
          Add Blockout
        </Button>
      </Group>
    </Stack>
  );
}

function MemberModal({ member, onClose }: { member?: TeamMember; onClose: () => void }) {
  const utils = trpc.useUtils();
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const [linked, setLinked] = useState<Contact | null>(null);
  const contacts = useContactSearch({ enabled: !member, chosen: linked, nothingFound: 'No contacts found' });
  const create = trpc.servicePlanner.members.create.useMutation();
  const update = trpc.servicePlanner.members.update.useMutation();
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
    },
    validate: schemaResolver(createMemberSchema, { sync: true }),
  });
  const save = async (values: MemberInput) => {
    try {
      if (member)
        await update.mutateAsync({
          id: member.id,
          ...values,
          name: typeof values.name === 'string' && values.name ? values.name : member.name,
        });
      else await create.mutateAsync(values);
      await utils.servicePlanner.members.invalidate();
      notifySuccess(member ? 'Team member updated' : 'Team member added');
      onClose();
    } catch (err) {
      notifyError(member ? 'Failed to update team member' : 'Failed to add team member', errorMessage(err));
    }
  };
  return (
    <Modal opened onClose={onClose} title={member ? 'Edit Team Member' : 'Add Team Member'} size="lg">
      <form onSubmit={form.onSubmit((v) => void save(v))} noValidate>
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
          <Switch label="Active" {...form.getInputProps('isActive', { type: 'checkbox' })} />
          {current ? <Blockouts member={current} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {member ? 'Save Member' : 'Add Member'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function PositionsCard() {
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const utils = trpc.useUtils();
  const create = trpc.servicePlanner.positions.create.useMutation();
  const del = trpc.servicePlanner.positions.delete.useMutation();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', category: '' },
    validate: schemaResolver(positionFieldsSchema, { sync: true }),
  });
  const save = async (values: typeof form.values) => {
    try {
      await create.mutateAsync(values);
      await utils.servicePlanner.positions.invalidate();
      form.reset();
      notifySuccess('Position added');
    } catch (err) {
      notifyError('Failed to add position', errorMessage(err));
    }
  };
  const groups = new Map<string, NonNullable<typeof positions.data>>();
  for (const p of positions.data ?? []) {
    const k = p.category ?? 'Other';
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="xs">
        Positions
      </Title>
      <Stack gap="xs">
        {[...groups].map(([category, list]) => (
          <Stack key={category} gap={4}>
            <Text size="sm" fw={600}>
              {category}
            </Text>
            <Group gap={6}>
              {list.map((p) => (
                <Badge
                  key={p.id}
                  variant="light"
                  rightSection={
                    <CloseButton
                      size="xs"
                      aria-label={`Delete position ${p.name}`}
                      onClick={() =>
                        confirmDestructive({
                          title: 'Delete position',
                          text: `Delete the position ${p.name}? Members lose it and assignments keep the person without a position.`,
                          confirm: 'Delete',
                          onConfirm: () =>
                            void del
                              .mutateAsync({ id: p.id })
                              .then(() => utils.servicePlanner.invalidate())
                              .catch((err: unknown) => notifyError('Failed to delete position', errorMessage(err))),
                        })
                      }
                    />
                  }
                >
                  {p.name}
                </Badge>
              ))}
            </Group>
          </Stack>
        ))}
        <form onSubmit={form.onSubmit((v) => void save(v))} noValidate>
          <Stack gap="xs">
            <TextInput label="Position name" placeholder="e.g. Keys" {...form.getInputProps('name')} />
            <TextInput label="Category" placeholder="e.g. Band" {...form.getInputProps('category')} />
            <Button type="submit" variant="light" leftSection={<IconPlus size={18} />} loading={create.isPending}>
              Add Position
            </Button>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}

export function TeamTab() {
  const members = trpc.servicePlanner.members.list.useQuery({}, { staleTime: PLANNER_STALE_MS });
  const [editing, setEditing] = useState<TeamMember | 'new' | null>(null);
  const utils = trpc.useUtils();
  const del = trpc.servicePlanner.members.delete.useMutation();
  const phone = useMediaQuery('(max-width: 48em)');
  const remove = (m: TeamMember) =>
    confirmDestructive({
      title: 'Delete team member',
      text: `Delete ${m.name}? They are removed from every plan they are scheduled on.`,
      confirm: 'Delete',
      onConfirm: () =>
        void del
          .mutateAsync({ id: m.id })
          .then(async () => {
            await utils.servicePlanner.invalidate();
            notifySuccess('Team member deleted');
          })
          .catch((err: unknown) => notifyError('Failed to delete team member', errorMessage(err))),
    });
  const actions = (m: TeamMember) => (
    <RowActionsMenu
      label={`Actions for ${m.name}`}
      items={[
        { label: 'Edit', icon: <IconPencil size={16} />, onClick: () => setEditing(m) },
        { label: 'Delete', icon: <IconTrash size={16} />, color: 'red', onClick: () => remove(m) },
      ]}
    />
  );
  const positionsOf = (m: TeamMember) => (
    <Group gap={4}>
      {m.positions.map((p) => (
        <Badge key={p.id} size="sm" variant="light">
          {p.name}
        </Badge>
      ))}
    </Group>
  );
  return (
    <Grid>
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack>
          <Group justify="flex-end">
            <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
              Add Member
            </Button>
          </Group>
          {members.isLoading ? (
            <Skeleton height={120} />
          ) : !members.data?.length ? (
            <EmptyState
              icon={<IconUsers size={24} />}
              title="No team members yet"
              description="Add the people who serve, and the positions they can fill."
            />
          ) : phone ? (
            <CardList
              rows={members.data}
              actions={actions}
              card={(m) => (
                <>
                  <Text fw={600}>
                    {m.name}
                    {m.isActive ? '' : ' (inactive)'}
                  </Text>
                  <Text size="sm">{[m.email, m.phone].filter(Boolean).join(' · ')}</Text>
                  {positionsOf(m)}
                </>
              )}
            />
          ) : (
            <DataTable
              minWidth={600}
              stickyHeader
              actions="hidden"
              headers={['Name', 'Email', 'Phone', 'Positions', 'Status']}
            >
              {members.data.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {m.name}
                    </Text>
                    {m.blockouts.length ? (
                      <Text size="xs" c="dimmed">
                        {m.blockouts.length} blockout{m.blockouts.length === 1 ? '' : 's'}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{m.email}</Table.Td>
                  <Table.Td>{m.phone}</Table.Td>
                  <Table.Td>{positionsOf(m)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={m.isActive ? 'green' : 'gray'}>
                      {m.isActive ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{actions(m)}</Table.Td>
                </Table.Tr>
              ))}
            </DataTable>
          )}
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <PositionsCard />
      </Grid.Col>
      {editing ? (
        <MemberModal member={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      ) : null}
    </Grid>
  );
}
