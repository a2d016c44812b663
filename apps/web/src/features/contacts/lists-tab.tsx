import { ActionIcon, Alert, Badge, Button, Card, Group, Loader, Menu, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  IconDots,
  IconDownload,
  IconMail,
  IconMessage,
  IconPencil,
  IconPlus,
  IconTrash,
  IconUsersPlus,
  IconList,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { httpStatus } from '../../lib/errors';
import { formatNumber } from '../../ui/format';
import { EmptyState } from '../../ui/empty-state';
import { LIST_TYPE_LABELS, type ContactList } from './labels';
import { ListFormModal } from './list-form-modal';
import { AddContactsModal } from './add-contacts-modal';
import { MembersModal } from './list-members-modal';

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
