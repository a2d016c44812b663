import { ActionIcon, Alert, Group, Loader, Modal, Pagination, ScrollArea, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { errorMessage } from '../../lib/errors';
import { fullName, type ContactList } from './labels';

/** Members shown a page at a time (a list can hold the whole address book). */
export const MEMBERS_PAGE = 50;

export function MembersModal({ list, onClose }: { list: ContactList; onClose: () => void }) {
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
