import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconBabyCarriage,
  IconDownload,
  IconEye,
  IconPencil,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUpload,
  IconUsers,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { usePhoneFormatter } from '../../lib/phone';
import { confirmDestructive, confirmDiscard } from '../../ui/confirm';
import { errorMessage } from '../../lib/errors';
import { formatNumber } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { EmptyState } from '../../ui/empty-state';
import { DataTable, RowActionsMenu } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { ChildGroupsDialog } from './child-groups-dialog';
import { ContactDetails } from './contact-details';
import { ContactForm } from './contact-form';
import { ImportDialog } from './import-dialog';
import { ListsTab } from './lists-tab';
import { fullName, type Contact } from './labels';

const PAGE_SIZE = 25;
type TabValue = 'all' | 'members' | 'staff' | 'lists';
const EMPTY: Record<Exclude<TabValue, 'lists'>, string> = {
  all: 'No contacts yet',
  members: 'No church members yet',
  staff: 'No staff members yet',
};

function ContactsTable({
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
  const utils = trpc.useUtils();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [page, setPage] = useState(1);
  const phone = usePhoneFormatter();
  const q = trpc.contacts.find.useQuery(
    { search: debounced || undefined, tab, page, pageSize: PAGE_SIZE },
    { placeholderData: (prev) => prev },
  );
  const del = trpc.contacts.delete.useMutation({
    onSuccess: async () => {
      notifySuccess('Contact deleted', 'The contact, their list memberships, family links and children were removed.');
      await Promise.all([utils.contacts.find.invalidate(), utils.contactLists.list.invalidate()]);
    },
    onError: (err) => notifyError('Error deleting contact', errorMessage(err)),
  });
  const confirmDelete = (c: Contact) =>
    confirmDestructive({
      title: `Delete ${fullName(c)}?`,
      text: (
        <>
          This permanently deletes the contact with their list memberships, family links and children. This action
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
          <DataTable minWidth={640} stickyHeader actionsWidth={140} headers={['Name', 'Email', 'Phone', 'Tags']}>
            {q.data!.items.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td fw={500}>{fullName(c)}</Table.Td>
                <Table.Td>{c.email}</Table.Td>
                <Table.Td>{phone(c)}</Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {c.metadata.isChurchMember ? (
                      <Badge size="sm" variant="light">
                        Member
                      </Badge>
                    ) : null}
                    {c.metadata.isServiceStaff ? (
                      <Badge size="sm" variant="light" color="grape">
                        Staff
                      </Badge>
                    ) : null}
                    {c.consent.email.status === 'unsubscribed' ? (
                      <Badge size="sm" variant="light" color="gray">
                        No email
                      </Badge>
                    ) : null}
                    {c.consent.sms.status === 'unsubscribed' ? (
                      <Badge size="sm" variant="light" color="gray">
                        No SMS
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                <Table.Td>
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
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
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

export function ContactsPage() {
  const [params, setParams] = useSearchParams();
  const tab = (
    ['all', 'members', 'staff', 'lists'].includes(params.get('tab') ?? '') ? params.get('tab') : 'all'
  ) as TabValue;
  const location = useLocation();
  // The dashboard's 'Add Contacts' quick action opens /contacts/new.
  const [sheet, setSheet] = useState<
    { mode: 'add' } | { mode: 'edit'; contact: Contact } | { mode: 'view'; contact: Contact } | null
  >(location.pathname === '/contacts/new' ? { mode: 'add' } : null);
  // Typed, unsaved work in the Add/Edit sheet: closing it asks first.
  const dirty = useRef(false);
  const setDirty = (d: boolean) => {
    dirty.current = d;
  };
  const closeSheet = () => {
    const close = () => {
      dirty.current = false;
      setSheet(null);
    };
    if (dirty.current && sheet?.mode !== 'view') confirmDiscard({ what: 'this contact', onDiscard: close });
    else close();
  };
  const [importing, setImporting] = useState(false);
  const [groups, setGroups] = useState(false);
  const setTab = (v: string | null) => {
    const next = new URLSearchParams(params);
    if (!v || v === 'all') next.delete('tab');
    else next.set('tab', v);
    setParams(next, { replace: true });
  };
  const table = (t: 'all' | 'members' | 'staff') => (
    <ContactsTable
      tab={t}
      onAdd={() => setSheet({ mode: 'add' })}
      onView={(c) => setSheet({ mode: 'view', contact: c })}
      onEdit={(c) => setSheet({ mode: 'edit', contact: c })}
    />
  );
  return (
    <>
      <PageHeader
        title="Contacts"
        description="Members, staff, families and the lists your campaigns go to."
        action={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconBabyCarriage size={18} />} onClick={() => setGroups(true)}>
              Child Groups
            </Button>
            <Button variant="default" leftSection={<IconUpload size={18} />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={18} />}
              component="a"
              href="/api/contacts/export"
            >
              Export CSV
            </Button>
            <Button leftSection={<IconPlus size={18} />} onClick={() => setSheet({ mode: 'add' })}>
              Add Contact
            </Button>
          </Group>
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="all">All Contacts</Tabs.Tab>
          <Tabs.Tab value="members">Church Members</Tabs.Tab>
          <Tabs.Tab value="staff">Staff</Tabs.Tab>
          <Tabs.Tab value="lists">Contact Lists</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="all">{table('all')}</Tabs.Panel>
        <Tabs.Panel value="members">{table('members')}</Tabs.Panel>
        <Tabs.Panel value="staff">{table('staff')}</Tabs.Panel>
        <Tabs.Panel value="lists">
          <ListsTab />
        </Tabs.Panel>
      </Tabs>

      <Drawer
        opened={!!sheet}
        onClose={closeSheet}
        position="right"
        size={600}
        title={sheet?.mode === 'add' ? 'Add Contact' : sheet?.mode === 'edit' ? 'Edit Contact' : 'Contact Details'}
      >
        {sheet?.mode === 'add' ? <ContactForm onSaved={() => setSheet(null)} onDirtyChange={setDirty} /> : null}
        {sheet?.mode === 'edit' ? (
          <ContactForm key={sheet.contact.id} contact={sheet.contact} onDirtyChange={setDirty} />
        ) : null}
        {sheet?.mode === 'view' ? <ContactDetails contactId={sheet.contact.id} /> : null}
      </Drawer>
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
      <ChildGroupsDialog opened={groups} onClose={() => setGroups(false)} />
    </>
  );
}
