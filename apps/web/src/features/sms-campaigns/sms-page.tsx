import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Radio,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { IconMessage, IconPencil, IconPlus, IconSearch, IconSend, IconTrash } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { smsCampaignFieldsSchema, smsSegments } from '@lampstand/api/schemas/sms-campaigns';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { confirmDestructive } from '../../ui/confirm';
import { errorMessage } from '../../lib/errors';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { EmptyState } from '../../ui/empty-state';
import { PageHeader } from '../../ui/page-header';
import { StatusBadge } from '../email-campaigns/status';

type Campaign = RouterOutputs['smsCampaigns']['list'][number];
interface Values {
  name: string;
  content: string;
  listId: string;
  status: 'draft' | 'scheduled' | 'ready';
  scheduledFor: string | null;
}

function toPayload(v: Values) {
  return {
    name: v.name,
    content: v.content,
    listIds: v.listId ? [v.listId] : [],
    status: v.status,
    scheduledFor: v.status === 'scheduled' && v.scheduledFor ? dayjs(v.scheduledFor).toISOString() : null,
  };
}

function CampaignForm({
  campaign,
  initialListId,
  onDone,
}: {
  campaign?: Campaign;
  initialListId?: string;
  onDone: () => void;
}) {
  const utils = trpc.useUtils();
  const lists = trpc.contactLists.list.useQuery({ include_counts: true });
  const [tab, setTab] = useState<string>('details');
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: campaign?.name ?? '',
      content: campaign?.content ?? '',
      listId: campaign?.listIds[0] ?? initialListId ?? '',
      status:
        campaign && ['draft', 'scheduled', 'ready'].includes(campaign.status)
          ? (campaign.status as Values['status'])
          : 'draft',
      scheduledFor: campaign?.scheduledFor ? dayjs(campaign.scheduledFor).format('YYYY-MM-DD HH:mm:ss') : null,
    },
    validate: (v) => {
      const r = smsCampaignFieldsSchema.safeParse(toPayload(v));
      const errors: Record<string, string> = {};
      if (!r.success)
        for (const i of r.error.issues) errors[i.path[0] === 'listIds' ? 'listId' : String(i.path[0])] ??= i.message;
      return errors;
    },
  });
  const create = trpc.smsCampaigns.create.useMutation({
    onSuccess: async () => {
      notifySuccess('Campaign created');
      await utils.smsCampaigns.list.invalidate();
      onDone();
    },
    onError: (err) => notifyError('Error', `Failed to create campaign: ${errorMessage(err)}`),
  });
  const update = trpc.smsCampaigns.update.useMutation({
    onSuccess: async () => {
      notifySuccess('Campaign updated');
      await utils.smsCampaigns.list.invalidate();
      onDone();
    },
    onError: (err) => notifyError('Error', `Failed to update campaign: ${errorMessage(err)}`),
  });
  const smsLists = (lists.data ?? []).filter((l) => l.type === 'sms' || l.type === 'both');
  const seg = smsSegments(form.values.content);
  const saving = create.isPending || update.isPending;
  const submit = form.onSubmit(
    (v) => (campaign ? update.mutate({ id: campaign.id, ...toPayload(v) }) : create.mutate(toPayload(v))),
    (errors) => setTab(errors.name || errors.content ? 'details' : errors.listId ? 'audience' : 'schedule'),
  );
  const chosen = smsLists.find((l) => String(l.id) === form.values.listId);
  return (
    <Paper withBorder p="lg" mb="lg" maw={760}>
      <Title order={4} mb="sm">
        {campaign ? 'Edit SMS Campaign' : 'New SMS Campaign'}
      </Title>
      <form onSubmit={submit} noValidate>
        <Tabs value={tab} onChange={(t) => setTab(t ?? 'details')} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="details">Campaign Details</Tabs.Tab>
            <Tabs.Tab value="audience">Audience</Tabs.Tab>
            <Tabs.Tab value="schedule">Schedule & Review</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="details">
            <Stack>
              <TextInput label="Campaign Name" withAsterisk {...form.getInputProps('name')} />
              <Textarea
                label="Message"
                withAsterisk
                autosize
                minRows={4}
                description="Merge tags: {{firstName}}, {{lastName}}, {{churchName}}"
                {...form.getInputProps('content')}
              />
              <Text size="sm" c="dimmed" data-testid="sms-counter">
                {seg.characters} characters · {seg.encoding} · {seg.segments}{' '}
                {seg.segments === 1 ? 'segment' : 'segments'} ({seg.perSegment} per segment)
              </Text>
              <Group justify="flex-end">
                <Button onClick={() => setTab('audience')}>Next</Button>
              </Group>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="audience">
            <Stack>
              {lists.isSuccess && smsLists.length === 0 ? (
                <Alert color="indigo" title="No SMS lists yet">
                  <Anchor component={Link} to="/contacts?tab=lists">
                    Create a contact list of type SMS or both
                  </Anchor>{' '}
                  first.
                </Alert>
              ) : (
                <Radio.Group label="Send to" withAsterisk {...form.getInputProps('listId')}>
                  <Stack mt="xs" gap="xs">
                    {smsLists.map((l) => (
                      <Radio
                        key={l.id}
                        value={String(l.id)}
                        label={`${l.name} (${formatNumber(l.contactCount ?? 0)} contacts)`}
                      />
                    ))}
                  </Stack>
                </Radio.Group>
              )}
              <Group justify="space-between">
                <Button variant="default" onClick={() => setTab('details')}>
                  Previous
                </Button>
                <Button disabled={smsLists.length === 0 || !form.values.listId} onClick={() => setTab('schedule')}>
                  Next
                </Button>
              </Group>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="schedule">
            <Stack>
              <Radio.Group label="Status" {...form.getInputProps('status')}>
                <Stack mt="xs" gap="xs">
                  <Radio value="draft" label="Save as draft" />
                  <Radio value="scheduled" label="Schedule for later" />
                  <Radio value="ready" label="Ready to Send" />
                </Stack>
              </Radio.Group>
              {form.values.status === 'scheduled' ? (
                <DateTimePicker
                  label="Send at"
                  withAsterisk
                  placeholder="Pick a date and time"
                  minDate={dayjs().format('YYYY-MM-DD')}
                  valueFormat="MMM D, YYYY h:mm A"
                  {...form.getInputProps('scheduledFor')}
                />
              ) : null}
              <Paper withBorder p="sm" bg="gray.0">
                <Text size="sm">
                  <b>{form.values.name || 'Untitled'}</b> to <b>{chosen?.name ?? 'no list chosen'}</b>: {seg.segments}{' '}
                  {seg.segments === 1 ? 'segment' : 'segments'} per message.
                </Text>
                <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                  {form.values.content || 'No message yet'}
                </Text>
              </Paper>
              <Group justify="space-between">
                <Button variant="default" onClick={() => setTab('audience')}>
                  Previous
                </Button>
                <Group>
                  <Button variant="default" onClick={onDone}>
                    Cancel
                  </Button>
                  <Button type="submit" disabled={saving}>
                    {saving ? 'Saving...' : campaign ? 'Update Campaign' : 'Create Campaign'}
                  </Button>
                </Group>
              </Group>
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </form>
    </Paper>
  );
}

function SmsOutbox() {
  const outbox = trpc.outbox.list.useQuery({ channel: 'sms', limit: 20 }, { refetchInterval: 3000 });
  if (!outbox.data || outbox.data.length === 0) return null;
  return (
    <Paper withBorder p="md" mt="lg">
      <Title order={4}>Outbox</Title>
      <Text size="sm" c="dimmed" mb="sm">
        No SMS provider is configured, so texts were kept here instead of being sent.
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>To</Table.Th>
            <Table.Th>Message</Table.Th>
            <Table.Th>Time</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {outbox.data.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.toAddress}</Table.Td>
              <Table.Td>{m.text}</Table.Td>
              <Table.Td>
                {formatDate(m.createdAt)} {formatTime(m.createdAt)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

export function SmsCampaignsPage() {
  const [params, setParams] = useSearchParams();
  const listIdParam = params.get('listId') ?? undefined;
  const location = useLocation();
  // A list's SMS button (?listId=) and the dashboard's quick action (/sms-campaigns/new) open the form.
  const [editing, setEditing] = useState<Campaign | 'new' | null>(
    listIdParam || location.pathname.endsWith('/new') ? 'new' : null,
  );
  const [search, setSearch] = useState('');
  const utils = trpc.useUtils();
  const campaigns = trpc.smsCampaigns.list.useQuery(undefined, {
    refetchInterval: (q) =>
      q.state.data?.some((c) => c.status === 'sending' || c.status === 'scheduled') ? 2000 : false,
  });
  const lists = trpc.contactLists.list.useQuery({ include_counts: false });
  const send = trpc.smsCampaigns.send.useMutation({
    onSuccess: async () => {
      notifySuccess('Campaign sent successfully');
      await utils.smsCampaigns.list.invalidate();
    },
    onError: (err) => notifyError('Failed to send campaign', errorMessage(err)),
  });
  const del = trpc.smsCampaigns.delete.useMutation({
    onSuccess: async () => {
      notifySuccess('Campaign deleted');
      await utils.smsCampaigns.list.invalidate();
    },
    onError: (err) => notifyError('Error', `Failed to delete campaign: ${errorMessage(err)}`),
  });
  const closeForm = () => {
    setEditing(null);
    if (params.get('listId')) {
      params.delete('listId');
      setParams(params, { replace: true });
    }
  };
  // A template's 'Use' lands here with ?edit={id}: open that draft (once the campaigns have loaded),
  // then drop the parameter so a reload does not open it again.
  const editParam = params.get('edit');
  const [openedEdit, setOpenedEdit] = useState<string | null>(null);
  if (editParam && campaigns.data && openedEdit !== editParam) {
    setOpenedEdit(editParam);
    const c = campaigns.data.find((x) => String(x.id) === editParam);
    if (c) setEditing(c);
  }
  useEffect(() => {
    if (!editParam || openedEdit !== editParam) return;
    const next = new URLSearchParams(params);
    next.delete('edit');
    setParams(next, { replace: true });
  }, [editParam, openedEdit, params, setParams]);
  const listName = (id: string) => lists.data?.find((l) => String(l.id) === id)?.name ?? `List ${id}`;
  const rows = (campaigns.data ?? []).filter((c) => c.name.toLowerCase().includes(search.trim().toLowerCase()));

  return (
    <>
      <PageHeader
        title="SMS Campaigns"
        description="Text messages to your contact lists."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
            New Campaign
          </Button>
        }
      />
      {editing ? (
        <CampaignForm
          key={editing === 'new' ? 'new' : editing.id}
          campaign={editing === 'new' ? undefined : editing}
          initialListId={listIdParam}
          onDone={closeForm}
        />
      ) : null}
      <Paper withBorder p="md">
        <TextInput
          placeholder="Search campaigns..."
          aria-label="Search campaigns"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={360}
          mb="md"
        />
        {campaigns.isLoading ? (
          <Skeleton h={160} />
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<IconMessage size={24} />}
            title={search ? 'No matching campaigns' : 'No SMS campaigns yet'}
            description="Write a text, choose a list, and send it now or later."
          />
        ) : (
          <Table.ScrollContainer minWidth={760}>
            <Table highlightOnHover verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Audience</Table.Th>
                  <Table.Th>Segments</Table.Th>
                  <Table.Th>When</Table.Th>
                  <Table.Th>
                    <Text span size="sm" fw={600}>
                      Actions
                    </Text>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((c) => {
                  const when = c.status === 'scheduled' ? c.scheduledFor : c.sentAt;
                  return (
                    <Table.Tr key={c.id}>
                      <Table.Td>
                        <Text fw={500}>{c.name}</Text>
                        <Text size="xs" c="dimmed" lineClamp={1}>
                          {c.content}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <StatusBadge status={c.status} />
                        {c.status === 'sent' || c.status === 'sending' ? (
                          <Text size="xs" c="dimmed">
                            {formatNumber(c.progress.sent)} sent · {formatNumber(c.progress.delivered)} delivered
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>{c.listIds.map(listName).join(', ') || '—'}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color="gray">
                          {c.segments} · {c.encoding}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{when ? `${formatDate(when)} ${formatTime(when)}` : '—'}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          {['draft', 'scheduled', 'ready'].includes(c.status) ? (
                            <ActionIcon variant="subtle" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
                              <IconPencil size={18} />
                            </ActionIcon>
                          ) : null}
                          {c.status === 'draft' || c.status === 'ready' ? (
                            <Button
                              size="compact-sm"
                              variant="light"
                              leftSection={<IconSend size={14} />}
                              onClick={() => send.mutate({ id: c.id })}
                              aria-label={`Send ${c.name}`}
                            >
                              Send
                            </Button>
                          ) : null}
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${c.name}`}
                            disabled={c.status === 'sending'}
                            onClick={() =>
                              confirmDestructive({
                                title: `Delete ${c.name}?`,
                                text: <>This permanently deletes the campaign. This action cannot be undone.</>,
                                confirm: 'Delete',
                                onConfirm: () => del.mutate({ id: c.id }),
                              })
                            }
                          >
                            <IconTrash size={18} />
                          </ActionIcon>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <SmsOutbox />
    </>
  );
}
