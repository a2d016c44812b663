import { Alert, Badge, Button, Group, Select, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMessages, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useE164Formatter } from '../../lib/phone';
import { useSave } from '../../lib/use-save';
import type { ConversationDigestSetting } from '@lampstand/api/schemas/conversations';
import { useChurchTimeZone } from '../../lib/time-zone';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';

export type ConversationRow = RouterOutputs['conversations']['list']['conversations'][number];

type Filter = 'open' | 'closed' | 'mine' | 'all';
const FILTERS: { value: Filter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'closed', label: 'Closed' },
  { value: 'mine', label: 'Assigned to me' },
  { value: 'all', label: 'All' },
];

const DIGEST_CHOICES: { value: ConversationDigestSetting; label: string }[] = [
  { value: 'off', label: 'Off' },
  { value: 'hourly', label: 'Hourly' },
  { value: 'daily', label: 'Daily' },
];

/** 'Email digest': how often staff get an email of unread conversations. */
function DigestSelect() {
  const digest = trpc.conversations.digest.useQuery();
  const utils = trpc.useUtils();
  const save = useSave(trpc.conversations.setDigest, {
    success: (d) =>
      d.frequency === 'off'
        ? 'Email digest turned off'
        : `You will get an email of unread conversations ${d.frequency}`,
    errorTitle: 'Failed to save the email digest',
    onSuccess: (d) => utils.conversations.digest.setData(undefined, d),
  });
  return (
    <Select
      label="Email digest"
      description="Unread conversations by email"
      data={DIGEST_CHOICES}
      value={digest.data?.frequency ?? null}
      disabled={!digest.data}
      allowDeselect={false}
      onChange={(v) => v && save.mutate({ frequency: v })}
      w={{ base: '100%', sm: 200 }}
    />
  );
}

/**
 * Marketing → Conversations: every text thread with a person, newest first, with its
 * unread count; search by name, number or words; open / closed / assigned to me. Refreshes every
 * few seconds, so a reply that arrives shows without a reload.
 */
export function ConversationsPage() {
  const timeZone = useChurchTimeZone();
  const phone = useE164Formatter();
  const [filter, setFilter] = useState<Filter>('open');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const list = trpc.conversations.list.useQuery(
    {
      status: filter === 'open' || filter === 'closed' ? filter : 'all',
      assigned: filter === 'mine' ? 'me' : 'anyone',
      search: debounced || undefined,
      page,
      pageSize: 25,
    },
    { refetchInterval: 5000 },
  );
  const rows = list.data?.conversations ?? [];
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / 25));
  return (
    <>
      <PageHeader
        title="Conversations"
        description="Texts from people, and your replies. Unread conversations are in bold."
        action={
          <Button component={Link} to="/conversations/keywords" variant="default">
            Keywords
          </Button>
        }
      />
      <Stack gap="md">
        <Group gap="md" wrap="wrap" align="flex-end">
          <TextInput
            label="Search conversations"
            placeholder="Name, number or words"
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            w={{ base: '100%', sm: 320 }}
          />
          <Select
            label="Show"
            data={FILTERS}
            value={filter}
            allowDeselect={false}
            onChange={(v) => {
              setFilter(v ?? 'open');
              setPage(1);
            }}
            w={{ base: '100%', sm: 200 }}
          />
          <DigestSelect />
        </Group>
        {list.error ? (
          <Alert color="red" title="Failed to load conversations">
            <Group justify="space-between">
              <Text size="sm">{list.error.message}</Text>
              <Button size="xs" variant="white" onClick={() => void list.refetch()}>
                Retry
              </Button>
            </Group>
          </Alert>
        ) : null}
        <DataTable<ConversationRow>
          label="Conversations"
          rows={rows}
          rowKey={(c) => c.id}
          empty={
            list.isLoading ? (
              <Stack gap="xs">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} height={48} />
                ))}
              </Stack>
            ) : (
              <EmptyState
                icon={<IconMessages size={24} />}
                title={debounced ? 'No results found.' : 'No conversations yet.'}
                description="When someone texts your number, their message appears here."
              />
            )
          }
          columns={[
            {
              header: 'Person',
              card: 'title',
              cell: (c) => (
                <Link
                  to={`/conversations/${c.id}`}
                  style={{ fontWeight: c.unread > 0 ? 700 : 500, color: 'inherit' }}
                  aria-label={`${c.name}${c.unread > 0 ? `, ${c.unread} unread` : ''}`}
                >
                  {c.name}
                </Link>
              ),
              note: (c) => c.preview,
            },
            { header: 'Number', cell: (c) => phone(c.phone) },
            {
              header: 'Unread',
              cell: (c) =>
                c.unread > 0 ? (
                  <Badge color="indigo" variant="filled" aria-label={`${c.unread} unread`}>
                    {formatNumber(c.unread)}
                  </Badge>
                ) : null,
            },
            {
              header: 'Last message',
              cell: (c) => `${formatDate(c.lastMessageAt, timeZone)} ${formatTime(c.lastMessageAt, timeZone)}`,
            },
            {
              header: 'Status',
              cell: (c) => (
                <Badge color={c.status === 'open' ? 'green' : 'gray'} variant="light">
                  {c.status === 'open' ? 'Open' : 'Closed'}
                </Badge>
              ),
            },
          ]}
        />
        {pages > 1 ? (
          <Group justify="flex-end" gap="xs">
            <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Text size="sm">
              Page {page} of {pages}
            </Text>
            <Button variant="default" size="xs" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </Group>
        ) : null}
      </Stack>
    </>
  );
}
