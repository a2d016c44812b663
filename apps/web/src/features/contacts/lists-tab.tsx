import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Loader,
  Menu,
  Modal,
  Pagination,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import {
  IconDots,
  IconDownload,
  IconMail,
  IconMessage,
  IconPencil,
  IconPlus,
  IconSearch,
  IconTrash,
  IconUsersPlus,
  IconList,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { contactListFieldsSchema } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { useSave, type SaveUtils } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { errorMessage, httpStatus } from '../../lib/errors';
import { formatNumber } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { EmptyState } from '../../ui/empty-state';
import { LIST_TYPE_LABELS, fullName, type ContactList } from './labels';

function ListFormModal({ list, opened, onClose }: { list?: ContactList; opened: boolean; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: list?.name ?? '',
      description: list?.description ?? '',
      // A list of another type falls back to both in the form.
      type: list && ['email', 'sms', 'both'].includes(list.type) ? list.type : 'both',
    },
    validate: schemaResolver(contactListFieldsSchema, { sync: true }),
  });
  const saved = {
    errorTitle: 'Error',
    invalidate: (utils: SaveUtils) => utils.contactLists.list.invalidate(),
    onSuccess: () => {
      form.reset();
      onClose();
    },
  };
  const create = useSave(trpc.contactLists.create, {
    ...saved,
    success: 'List created',
    errorPrefix: 'Failed to create list',
  });
  const update = useSave(trpc.contactLists.update, {
    ...saved,
    success: 'List updated',
    errorPrefix: 'Failed to update list',
  });
  return (
    <Modal opened={opened} onClose={onClose} title={list ? 'Edit List' : 'Create List'} centered>
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          list ? update.mutate({ id: list.id, ...v, type: v.type }) : create.mutate({ ...v, type: v.type }),
        )}
      >
        <Stack>
          <TextInput label="List name" withAsterisk {...form.getInputProps('name')} />
          <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
          <Select
            label="List type"
            allowDeselect={false}
            data={[
              { value: 'both', label: 'Email & SMS' },
              { value: 'email', label: 'Email only' },
              { value: 'sms', label: 'SMS only' },
            ]}
            {...form.getInputProps('type')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {list ? 'Update List' : 'Create List'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function AddContactsModal({ list, onClose }: { list: ContactList; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [search, setSearch] = useState('');
  const candidates = trpc.contacts.find.useQuery({ search, tab: 'all', page: 1, pageSize: 100 });
  // The list's members among the same first 100 matches: the same search, order and page size
  // within the list, so every member among the candidates is in it (never the whole list).
  const members = trpc.contacts.find.useQuery({ search, tab: 'all', listId: list.id, page: 1, pageSize: 100 });
  const [selected, setSelected] = useState<number[]>([]);
  const add = trpc.contactLists.addContact.useMutation();
  const [saving, setSaving] = useState(false);
  const inList = new Set((members.data?.items ?? []).map((c) => c.id));
  const available = (candidates.data?.items ?? []).filter((c) => !inList.has(c.id));
  const save = async () => {
    setSaving(true);
    try {
      for (const contactId of selected) await add.mutateAsync({ listId: list.id, contactId });
      notifySuccess('Contact added to list', `${selected.length} added to ${list.name}.`);
      await Promise.all([
        utils.contactLists.list.invalidate(),
        utils.contacts.find.invalidate(),
        utils.contactLists.ofContact.invalidate(),
      ]);
      onClose();
    } catch (err) {
      notifyError('Error', `Failed to add contact to list: ${errorMessage(err)}`);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Add Contacts to ${list.name}`} size="lg" centered>
      <Stack>
        <TextInput
          placeholder="Search contacts..."
          aria-label="Search contacts"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <ScrollArea.Autosize mah={400} type="auto">
          {candidates.isLoading || members.isLoading ? (
            <Loader size="sm" aria-label="Loading contacts" />
          ) : candidates.error ? (
            <Alert color="red" title="Error loading contacts">
              {errorMessage(candidates.error)}
            </Alert>
          ) : available.length === 0 ? (
            <Text c="dimmed" size="sm" py="md" ta="center">
              No available contacts
            </Text>
          ) : (
            <Stack gap={6}>
              {available.map((c) => (
                <Checkbox
                  key={c.id}
                  label={`${fullName(c)}${c.email ? ` · ${c.email}` : ''}`}
                  checked={selected.includes(c.id)}
                  onChange={(e) => {
                    const checked = e.currentTarget.checked;
                    setSelected((s) => (checked ? [...s, c.id] : s.filter((x) => x !== c.id)));
                  }}
                />
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {selected.length} selected
          </Text>
          <Group>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button disabled={selected.length === 0} loading={saving} onClick={() => void save()}>
              Add to List
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Members shown a page at a time (a list can hold the whole address book). */
const MEMBERS_PAGE = 50;

function MembersModal({ list, onClose }: { list: ContactList; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [page, setPage] = useState(1);
  const members = trpc.contacts.find.useQuery({ tab: 'all', listId: list.id, page, pageSize: MEMBERS_PAGE });
  const pages = Math.max(1, Math.ceil((members.data?.total ?? 0) / MEMBERS_PAGE));
  const remove = useSave(trpc.contactLists.removeContact, {
    success: 'Contact removed from list',
    errorTitle: 'Error',
    errorPrefix: 'Failed to remove contact from list',
    onSuccess: async () => {
      // The last one on a later page: show the page before.
      if (page > 1 && members.data?.items.length === 1) setPage(page - 1);
      await Promise.all([
        utils.contacts.find.invalidate(),
        utils.contactLists.list.invalidate(),
        utils.contactLists.ofContact.invalidate(),
      ]);
    },
  });
  return (
    <Modal opened onClose={onClose} title={list.name} size="lg" centered>
      <ScrollArea.Autosize mah={400} type="auto">
        {members.isLoading ? (
          <Loader size="sm" aria-label="Loading contacts" />
        ) : members.error ? (
          <Alert color="red" title="Error loading contacts">
            {errorMessage(members.error)}
          </Alert>
        ) : (members.data?.items ?? []).length === 0 ? (
          <Text c="dimmed" size="sm">
            No contacts in this list yet
          </Text>
        ) : (
          <Stack gap={6}>
            {members.data!.items.map((c) => (
              <Group key={c.id} justify="space-between" wrap="nowrap">
                <Text size="sm">
                  {fullName(c)}{' '}
                  <Text span c="dimmed">
                    {c.email}
                  </Text>
                </Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove ${fullName(c)}`}
                  onClick={() =>
                    confirmDestructive({
                      title: 'Remove from list?',
                      text: (
                        <>
                          {fullName(c)} will no longer receive communications sent to {list.name}.
                        </>
                      ),
                      confirm: 'Remove',
                      onConfirm: () => remove.mutate({ listId: list.id, contactId: c.id }),
                    })
                  }
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
      </ScrollArea.Autosize>
      {pages > 1 ? (
        <Group justify="center" mt="md">
          <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" />
        </Group>
      ) : null}
    </Modal>
  );
}

export function ListsTab() {
  const lists = trpc.contactLists.list.useQuery({ include_counts: true });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ContactList | null>(null);
  const [adding, setAdding] = useState<ContactList | null>(null);
  const [viewing, setViewing] = useState<ContactList | null>(null);
  const del = useSave(trpc.contactLists.delete, {
    success: 'List deleted',
    errorTitle: 'Error',
    errorPrefix: 'Failed to delete list',
    invalidate: (utils) => utils.contactLists.list.invalidate(),
  });

  if (lists.isLoading) return <Loader aria-label="Loading lists" />;
  if (lists.error) {
    return (
      <Alert color="red" title="Error loading contact lists">
        <Text size="sm">Please try again later</Text>
        <Text size="xs" c="dimmed">
          {httpStatus(lists.error) === 401 ? 'Not authenticated' : 'Failed to fetch contact lists'}
        </Text>
      </Alert>
    );
  }
  const data = lists.data ?? [];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
          Create List
        </Button>
      </Group>
      {data.length === 0 ? (
        <EmptyState
          icon={<IconList size={24} />}
          title="No contact lists yet"
          description="Lists group contacts for email and SMS campaigns."
          action={
            <Button variant="light" onClick={() => setCreating(true)}>
              Create List
            </Button>
          }
        />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {data.map((l) => (
            <Card key={l.id} withBorder padding="md" data-testid={`list-card-${l.id}`}>
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} truncate="end">
                    {l.name}
                  </Text>
                  <Group gap={6}>
                    <Badge variant="light" size="sm">
                      {LIST_TYPE_LABELS[l.type]}
                    </Badge>
                    <Text size="sm" c="dimmed">
                      {formatNumber(l.contactCount ?? 0)} {l.contactCount === 1 ? 'contact' : 'contacts'}
                    </Text>
                  </Group>
                </Stack>
                <Menu position="bottom-end" shadow="md">
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${l.name}`}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => setEditing(l)}>
                      Edit
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconDownload size={16} />}
                      component="a"
                      href={`/api/contacts/export?listId=${l.id}`}
                    >
                      Export CSV
                    </Menu.Item>
                    <Menu.Item
                      leftSection={<IconTrash size={16} />}
                      color="red"
                      onClick={() =>
                        confirmDestructive({
                          title: `Delete ${l.name}?`,
                          text: (
                            <>
                              This permanently deletes the list. This action cannot be undone. Its contacts stay in your
                              database.
                            </>
                          ),
                          confirm: 'Delete',
                          onConfirm: () => del.mutate({ id: l.id }),
                        })
                      }
                    >
                      Delete
                    </Menu.Item>
                  </Menu.Dropdown>
                </Menu>
              </Group>
              <Text size="sm" c="dimmed" mt="xs" lineClamp={2} mih={40}>
                {l.description || 'No description'}
              </Text>
              <Group mt="md" gap="xs">
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconUsersPlus size={14} />}
                  onClick={() => setAdding(l)}
                >
                  Add Contacts
                </Button>
                <Button size="xs" variant="default" onClick={() => setViewing(l)}>
                  View
                </Button>
                {l.type === 'sms' || l.type === 'both' ? (
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconMessage size={14} />}
                    component={Link}
                    to={`/sms-campaigns?listId=${l.id}`}
                  >
                    SMS
                  </Button>
                ) : null}
                {l.type === 'email' || l.type === 'both' ? (
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconMail size={14} />}
                    component={Link}
                    to={`/email-campaigns?listId=${l.id}`}
                  >
                    Email
                  </Button>
                ) : null}
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {creating ? <ListFormModal opened onClose={() => setCreating(false)} /> : null}
      {editing ? <ListFormModal opened list={editing} onClose={() => setEditing(null)} /> : null}
      {adding ? <AddContactsModal list={adding} onClose={() => setAdding(null)} /> : null}
      {viewing ? <MembersModal list={viewing} onClose={() => setViewing(null)} /> : null}
    </Stack>
  );
}
