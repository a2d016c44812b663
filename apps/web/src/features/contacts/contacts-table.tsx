import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconEye, IconPencil, IconPlus, IconSearch, IconTrash, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { usePhoneFormatter } from '../../lib/phone';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { formatNumber } from '../../ui/format';
import { EmptyState } from '../../ui/empty-state';
import { DataTable, RowActionsMenu } from '../../ui/data-table';
import { fullName, type Contact } from './labels';

export const PAGE_SIZE = 25;

export type TabValue = 'all' | 'members' | 'staff' | 'lists';

export const EMPTY: Record<Exclude<TabValue, 'lists'>, string> = {
  all: 'No contacts yet',
  members: 'No church members yet',
  staff: 'No staff members yet',
};

export function ContactsTable({
  tab,
  onView,
  onEdit,
  onAdd,
}: {
  tab: 'all' | 'members' | 'staff';
  onView: (c: Contact) => void;
  onEdit: (c: Contact) => void;
  onAdd: () => void;
}) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [page, setPage] = useState(1);
  const phone = usePhoneFormatter();
  const q = trpc.contacts.find.useQuery(
    { search: debounced || undefined, tab, page, pageSize: PAGE_SIZE },
    { placeholderData: (prev) => prev },
  );
  const del = useSave(trpc.contacts.delete, {
    success: ['Contact deleted', 'The contact was removed, with their lists, family, groups and check-in history.'],
    errorTitle: 'Error deleting contact',
    invalidate: (utils) => [utils.contacts.find.invalidate(), utils.contactLists.list.invalidate()],
  });
  const confirmDelete = (c: Contact) =>
    confirmDestructive({
      title: `Delete ${fullName(c)}?`,
      text: (
        <>
          This permanently deletes the contact with their list memberships, family links and children, their group
          memberships and attendance, and their check-in history; their gifts stay in your giving records. If they are a
          duplicate, merge them instead (Merge with… on the contact to keep): nothing of theirs is lost. This action
          cannot be undone.
        </>
      ),
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: c.id }),
    });

  const total = q.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="md" wrap="wrap">
        <TextInput
          placeholder="Search by name, email or phone..."
          aria-label="Search contacts"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', sm: 360 }}
        />
        <Text size="sm" c="dimmed">
          {q.data ? `${formatNumber(total)} ${total === 1 ? 'contact' : 'contacts'}` : ''}
        </Text>
      </Group>
      {q.isLoading ? (
        <Skeleton h={240} />
      ) : q.error ? (
        <Alert color="red" title="Failed to load contacts. Please try again.">
          <Button size="xs" variant="light" color="red" onClick={() => void q.refetch()}>
            Retry
          </Button>
        </Alert>
      ) : total === 0 ? (
        debounced ? (
          <EmptyState
            icon={<IconSearch size={24} />}
            title="No matching contacts found"
            description="Try another name, email or phone number."
          />
        ) : (
          <EmptyState
            icon={<IconUsers size={24} />}
            title={EMPTY[tab]}
            action={
              <Button variant="light" leftSection={<IconPlus size={16} />} onClick={onAdd}>
                Add Contact
              </Button>
            }
          />
        )
      ) : (
        <>
          <DataTable
            label="Contacts"
            rows={q.data!.items}
            rowKey={(c) => c.id}
            minWidth={640}
            stickyHeader
            actionsWidth={140}
            columns={[
              {
                header: 'Name',
                card: 'title',
                td: { fw: 500 },
                cell: (c) => (
                  <Anchor component={Link} to={`/contacts/detail/${c.id}`} fw={500} inherit>
                    {fullName(c)}
                  </Anchor>
                ),
              },
              { header: 'Email', cell: (c) => c.email },
              { header: 'Phone', cell: (c) => phone(c) },
              { header: 'Tags', cell: contactTags },
            ]}
            actions={(c) => (
              <Group gap={4} wrap="nowrap">
                <ActionIcon variant="subtle" aria-label={`View ${fullName(c)}`} onClick={() => onView(c)}>
                  <IconEye size={18} />
                </ActionIcon>
                <ActionIcon variant="subtle" aria-label={`Edit ${fullName(c)}`} onClick={() => onEdit(c)}>
                  <IconPencil size={18} />
                </ActionIcon>
                <RowActionsMenu
                  label={`More actions for ${fullName(c)}`}
                  items={[
                    {
                      label: 'Delete',
                      icon: <IconTrash size={16} />,
                      color: 'red',
                      onClick: () => confirmDelete(c),
                    },
                  ]}
                />
              </Group>
            )}
          />
          {pages > 1 ? (
            <Group justify="center" mt="md">
              <Pagination total={pages} value={page} onChange={setPage} aria-label="Contact pages" />
            </Group>
          ) : null}
        </>
      )}
    </Paper>
  );
}

/** Chips shown in a row before the rest are counted as "+N". */
const SHOWN_TAGS = 4;

/**
 * A contact's tags: member, staff, the channels they unsubscribed from, then the church's own tags
 * (imported or typed), wrapping; past a few, "+N" with the rest in its title (none: nothing).
 */
function contactTags(c: Contact) {
  const flags = [
    c.metadata.isChurchMember ? { label: 'Member', color: undefined } : null,
    c.metadata.isServiceStaff ? { label: 'Staff', color: 'grape' } : null,
    c.consent.email.status === 'unsubscribed' ? { label: 'No email', color: 'gray' } : null,
    c.consent.sms.status === 'unsubscribed' ? { label: 'No SMS', color: 'gray' } : null,
  ].filter((t) => t !== null);
  const tags = [
    ...flags.map((t) => ({ ...t, own: false })),
    ...c.tags.map((t) => ({ label: t, color: 'teal', own: true })),
  ];
  if (tags.length === 0) return null;
  const shown = tags.slice(0, SHOWN_TAGS);
  const rest = tags.slice(SHOWN_TAGS);
  return (
    <Group gap={4} wrap="wrap">
      {shown.map((t, i) => (
        <Badge key={i} size="sm" variant="light" color={t.color} tt={t.own ? 'none' : undefined}>
          {t.label}
        </Badge>
      ))}
      {rest.length > 0 ? (
        <Badge size="sm" variant="outline" color="gray" title={rest.map((t) => t.label).join(', ')}>
          {`+${rest.length}`}
          <VisuallyHidden>{` more: ${rest.map((t) => t.label).join(', ')}`}</VisuallyHidden>
        </Badge>
      ) : null}
    </Group>
  );
}
