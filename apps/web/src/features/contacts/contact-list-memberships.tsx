import { ActionIcon, Alert, Badge, Button, Group, Loader, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { LIST_TYPE_LABELS, fullName, type Contact } from './labels';

export function ListMemberships({ contact }: { contact: Contact }) {
  const utils = trpc.useUtils();
  const memberships = trpc.contactLists.ofContact.useQuery({ id: contact.id });
  const all = trpc.contactLists.list.useQuery({ include_counts: false });
  const [listId, setListId] = useState<string | null>(null);
  const refresh = () =>
    Promise.all([
      utils.contactLists.ofContact.invalidate({ id: contact.id }),
      utils.contactLists.list.invalidate(),
      utils.contacts.find.invalidate(),
    ]);
  const add = useSave(trpc.contactLists.addContact, {
    success: 'Contact added to list',
    errorTitle: 'Error',
    errorPrefix: 'Failed to add contact to list',
    onSuccess: async () => {
      setListId(null);
      await refresh();
    },
  });
  const remove = useSave(trpc.contactLists.removeContact, {
    success: 'Contact removed from list',
    errorTitle: 'Error',
    errorPrefix: 'Failed to remove contact from list',
    invalidate: refresh,
  });
  if (memberships.isLoading) return <Loader size="sm" aria-label="Loading lists" />;
  if (memberships.error) {
    return (
      <Alert color="red" title="Error loading lists. Please try again.">
        <Button size="xs" variant="light" color="red" onClick={() => void memberships.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  const inLists = memberships.data ?? [];
  const available = (all.data ?? []).filter((l) => !inLists.some((m) => m.id === l.id));
  return (
    <Stack>
      {inLists.length === 0 ? (
        <Text c="dimmed" size="sm">
          This contact is not in any lists yet
        </Text>
      ) : (
        inLists.map((l) => (
          <Paper key={l.id} withBorder p="sm">
            <Group justify="space-between">
              <Group gap="xs">
                <Text fw={500}>{l.name}</Text>
                <Badge variant="light" size="sm">
                  {LIST_TYPE_LABELS[l.type]}
                </Badge>
              </Group>
              <Tooltip label="Remove from list">
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Remove from ${l.name}`}
                  onClick={() =>
                    confirmDestructive({
                      title: 'Remove from list?',
                      text: (
                        <>
                          {fullName(contact)} will no longer receive communications sent to {l.name}.
                        </>
                      ),
                      confirm: 'Remove',
                      onConfirm: () => remove.mutate({ listId: l.id, contactId: contact.id }),
                    })
                  }
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          </Paper>
        ))
      )}
      {all.isSuccess && available.length === 0 ? (
        // With no lists at all, 'not in any lists yet' above says it all.
        inLists.length > 0 ? (
          <Text c="dimmed" size="sm">
            This contact is already in all available lists.
          </Text>
        ) : null
      ) : (
        <Group align="flex-end" gap="xs">
          <Select
            label="Add to a list"
            placeholder="Choose a list"
            data={available.map((l) => ({ value: String(l.id), label: l.name }))}
            value={listId}
            onChange={setListId}
          />
          <Button
            leftSection={<IconPlus size={16} />}
            variant="light"
            loading={add.isPending}
            onClick={() => {
              if (!listId) return add.fail('Please select a contact list.');
              add.mutate({ listId: Number(listId), contactId: contact.id });
            }}
          >
            Add
          </Button>
        </Group>
      )}
    </Stack>
  );
}
