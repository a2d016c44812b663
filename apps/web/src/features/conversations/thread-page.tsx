import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { IconArrowLeft, IconChevronDown, IconMessagePlus } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { RouterOutputs } from '@lampstand/api';
import { MAX_REPLY_LENGTH, createQuickReplyInput, sendReplyInput } from '@lampstand/api/schemas/conversations';
import { trpc } from '../../lib/trpc';
import { useE164Formatter } from '../../lib/phone';
import { useSave } from '../../lib/use-save';
import { useChurchTimeZone } from '../../lib/time-zone';
import { useSession } from '../../shell/session';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { SmsTextCount } from '../campaigns/sms-text-count';

type Message = RouterOutputs['conversations']['messages']['messages'][number];
type Conversation = RouterOutputs['conversations']['get'];

const STATUS_WORDS: Record<string, string> = {
  pending: 'Sending',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Not delivered',
  failed: 'Failed',
};

/** One entry of the timeline: the person's texts on the left, the church's on the right. Text only, never HTML. */
function Bubble({ m, name, timeZone }: { m: Message; name: string; timeZone: string }) {
  const mine = m.direction === 'outbound';
  const who =
    m.kind === 'campaign'
      ? `Campaign: ${m.campaignName ?? ''}`
      : m.kind === 'journey'
        ? `Journey: ${m.journeyName ?? ''}`
        : m.kind === 'group'
          ? `Group: ${m.groupName ?? ''}`
          : mine
            ? 'You'
            : name;
  const automatic = m.kind === 'campaign' || m.kind === 'journey' || m.kind === 'group';
  return (
    <Group justify={mine ? 'flex-end' : 'flex-start'} wrap="nowrap">
      <Paper
        withBorder
        p="sm"
        radius="md"
        maw="min(80%, 560px)"
        bg={mine ? (automatic ? 'gray.0' : 'indigo.0') : 'white'}
        component="article"
        aria-label={`${who}, ${formatDate(m.at, timeZone)} ${formatTime(m.at, timeZone)}`}
      >
        <Group gap={6} mb={4} wrap="wrap">
          <Text size="xs" fw={600}>
            {who}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDate(m.at, timeZone)} {formatTime(m.at, timeZone)}
          </Text>
          {m.keyword ? (
            <Badge size="xs" variant="light" color="orange">
              {m.keyword}
            </Badge>
          ) : null}
          {mine && m.status ? (
            <Text size="xs" c={m.status === 'failed' || m.status === 'undelivered' ? 'red.8' : 'dimmed'}>
              {STATUS_WORDS[m.status] ?? m.status}
            </Text>
          ) : null}
        </Group>
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {m.body}
        </Text>
      </Paper>
    </Group>
  );
}

/** Link an 'Unknown' number to a contact of the church, or make a new contact of it. */
function LinkContact({ conversation, onClose }: { conversation: Conversation; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const [contactId, setContactId] = useState<string | null>(null);
  const phone = useE164Formatter();
  const found = trpc.contacts.find.useQuery({ search: debounced || undefined, pageSize: 20 });
  const form = useForm({ initialValues: { firstName: '', lastName: '' } });
  const update = useSave(trpc.conversations.update, {
    success: 'Conversation linked',
    errorTitle: 'Failed to link the conversation',
    form,
    invalidate: (u) => [u.conversations.get.invalidate(), u.conversations.list.invalidate()],
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title={`Who is ${phone(conversation.phone)}?`} size="md">
      <Stack>
        <Select
          label="An existing contact"
          placeholder="Search by name"
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          data={(found.data?.items ?? []).map((c) => ({
            value: String(c.id),
            label: `${c.firstName} ${c.lastName}`.trim() || (c.email ?? String(c.id)),
          }))}
          value={contactId}
          onChange={setContactId}
          filter={({ options }) => options}
          nothingFoundMessage="No contacts found"
        />
        <Button
          disabled={!contactId}
          loading={update.isPending}
          onClick={() => update.mutate({ id: conversation.id, contactId: Number(contactId) })}
        >
          Link to this contact
        </Button>
        <Text size="sm" c="dimmed">
          Or make a new contact with this number:
        </Text>
        <form
          onSubmit={form.onSubmit((v) =>
            update.mutate({ id: conversation.id, newContact: { firstName: v.firstName, lastName: v.lastName } }),
          )}
        >
          <Stack>
            <Group grow align="flex-start">
              <TextInput label="First name" required {...form.getInputProps('firstName')} name="newContact.firstName" />
              <TextInput label="Last name" {...form.getInputProps('lastName')} />
            </Group>
            <Button type="submit" variant="light" loading={update.isPending}>
              Create contact
            </Button>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}

/** Save the reply box's text as a quick reply, under a title. */
function SaveQuickReply({ body, onClose }: { body: string; onClose: () => void }) {
  const form = useForm({
    initialValues: { title: '', body },
    validate: schemaResolver(createQuickReplyInput, { sync: true }),
  });
  const create = useSave(trpc.conversations.createQuickReply, {
    success: 'Quick reply saved',
    errorTitle: 'Failed to save the quick reply',
    form,
    invalidate: (u) => u.conversations.quickReplies.invalidate(),
    onSuccess: onClose,
  });
  return (
    <Modal opened onClose={onClose} title="Save as quick reply" size="md">
      <form onSubmit={form.onSubmit((v) => create.mutate(v))}>
        <Stack>
          <TextInput label="Title" required {...form.getInputProps('title')} />
          <Textarea label="Text" autosize minRows={3} required {...form.getInputProps('body')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The reply box: the text, how many texts it counts as, quick replies, Send. */
function ReplyBox({ conversation }: { conversation: Conversation }) {
  const form = useForm({
    initialValues: { id: conversation.id, body: '' },
    validate: schemaResolver(sendReplyInput, { sync: true }),
  });
  const quick = trpc.conversations.quickReplies.useQuery();
  const [saving, { open: openSave, close: closeSave }] = useDisclosure(false);
  const send = useSave(trpc.conversations.reply, {
    success: 'Reply sent',
    errorTitle: 'Failed to send the reply',
    form,
    fieldErrorsOnly: true,
    invalidate: (u) => [
      u.conversations.messages.invalidate({ id: conversation.id }),
      u.conversations.get.invalidate({ id: conversation.id }),
      u.conversations.list.invalidate(),
    ],
    onSuccess: () => form.setFieldValue('body', ''),
  });
  const body = form.values.body;
  if (conversation.optedOut)
    return (
      <Alert color="orange" title="This person texted STOP">
        They can be texted again once they reply START.
      </Alert>
    );
  return (
    <form onSubmit={form.onSubmit((v) => send.mutate(v))}>
      <Stack gap="xs">
        <Textarea
          label="Reply"
          placeholder="Write a reply…"
          autosize
          minRows={3}
          maxRows={10}
          {...form.getInputProps('body')}
          description={`${formatNumber(body.length)} of ${formatNumber(MAX_REPLY_LENGTH)} characters`}
        />
        <SmsTextCount content={body} />
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Menu position="top-start" withinPortal>
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                  Quick replies
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {(quick.data ?? []).length === 0 ? <Menu.Label>No quick replies yet</Menu.Label> : null}
                {(quick.data ?? []).map((q) => (
                  <Menu.Item key={q.id} onClick={() => form.setFieldValue('body', q.body)}>
                    {q.title}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
            <Button
              variant="subtle"
              leftSection={<IconMessagePlus size={18} />}
              disabled={!body.trim()}
              onClick={openSave}
            >
              Save as quick reply
            </Button>
          </Group>
          <Button type="submit" loading={send.isPending}>
            Send reply
          </Button>
        </Group>
      </Stack>
      {saving ? <SaveQuickReply body={body} onClose={closeSave} /> : null}
    </form>
  );
}

/** One conversation: the timeline of texts, replies and campaign texts, the reply box and the thread's actions. */
export function ConversationThreadPage() {
  const id = Number(useParams().id);
  const timeZone = useChurchTimeZone();
  const phone = useE164Formatter();
  const { user } = useSession();
  const conversation = trpc.conversations.get.useQuery({ id }, { refetchInterval: 5000 });
  const messages = trpc.conversations.messages.useQuery({ id }, { refetchInterval: 5000 });
  const [linking, { open: openLink, close: closeLink }] = useDisclosure(false);
  const update = useSave(trpc.conversations.update, {
    errorTitle: 'Failed to update the conversation',
    invalidate: (u) => [u.conversations.get.invalidate({ id }), u.conversations.list.invalidate()],
  });
  const c = conversation.data;
  // Opening a thread with unread texts reads them.
  const marked = useRef(false);
  useEffect(() => {
    if (c && c.unread > 0 && !marked.current) {
      marked.current = true;
      update.mutate({ id: c.id, read: true });
    }
  }, [c, update]);

  if (conversation.error)
    return (
      <Alert color="red" title="Failed to load the conversation">
        {conversation.error.message}{' '}
        <Anchor component={Link} to="/conversations">
          Back to conversations
        </Anchor>
      </Alert>
    );
  if (!c) return <Skeleton height={240} />;
  const mine = user ? c.assignedUserId === user.id : false;
  return (
    <>
      <Anchor component={Link} to="/conversations" size="sm" mb="xs" display="inline-flex" style={{ gap: 4 }}>
        <IconArrowLeft size={16} /> Conversations
      </Anchor>
      <PageHeader
        title={c.name}
        description={
          <>
            {phone(c.phone)} · {c.status === 'open' ? 'Open' : 'Closed'}
            {c.assignedUserId ? (mine ? ' · Assigned to you' : ' · Assigned') : ''}
            {c.contactId ? (
              <>
                {' · '}
                <Anchor component={Link} to={`/contacts/detail/${c.contactId}`} size="sm" underline="always">
                  View contact
                </Anchor>
              </>
            ) : null}
          </>
        }
        action={
          <Group gap="xs" wrap="wrap">
            {!c.contactId ? (
              <Button variant="light" onClick={openLink}>
                Link to contact
              </Button>
            ) : null}
            <Button
              variant="default"
              onClick={() => update.mutate({ id: c.id, assignedUserId: mine ? null : (user?.id ?? null) })}
            >
              {mine ? 'Unassign' : 'Assign to me'}
            </Button>
            <Button variant="default" onClick={() => update.mutate({ id: c.id, read: false })}>
              Mark unread
            </Button>
            <Button
              variant={c.status === 'open' ? 'filled' : 'light'}
              onClick={() => update.mutate({ id: c.id, status: c.status === 'open' ? 'closed' : 'open' })}
            >
              {c.status === 'open' ? 'Close' : 'Reopen'}
            </Button>
          </Group>
        }
      />
      <Stack gap="sm" maw={860}>
        <Stack gap="sm" role="log" aria-label="Messages" aria-live="polite">
          {messages.isLoading ? <Skeleton height={80} /> : null}
          {(messages.data?.messages ?? []).map((m) => (
            <Bubble key={m.key} m={m} name={c.name} timeZone={timeZone} />
          ))}
        </Stack>
        <ReplyBox conversation={c} />
      </Stack>
      {linking ? <LinkContact conversation={c} onClose={closeLink} /> : null}
    </>
  );
}
