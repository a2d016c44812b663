import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { fullName, type Contact } from './labels';

const describe = (c: Contact) => `${fullName(c)}${c.email ? ` (${c.email})` : c.phone ? ` (${c.phone})` : ''}`;

/**
 * 'Merge with…': choose another contact to merge into this one. The other contact's lists, family
 * links, children and consent history move here and it is deleted (the server logs the merge).
 */
export function MergeContactDialog({
  contact,
  opened,
  onClose,
}: {
  contact: Contact;
  opened: boolean;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [other, setOther] = useState<Contact | null>(null);
  const candidates = trpc.contacts.find.useQuery(
    { search: debounced, tab: 'all', page: 1, pageSize: 20 },
    { enabled: opened },
  );
  const close = () => {
    setOther(null);
    setSearch('');
    onClose();
  };
  const merge = trpc.contacts.merge.useMutation({
    onSuccess: async (result) => {
      notifySuccess(
        'Contacts merged',
        `${fullName(other ?? result.contact)} was merged into ${fullName(result.contact)}.`,
      );
      utils.contacts.get.setData({ id: result.contact.id }, result.contact);
      close();
      await Promise.all([
        utils.contacts.invalidate(),
        utils.contactLists.invalidate(),
        utils.family.invalidate(),
        utils.children.invalidate(),
      ]);
    },
    onError: (err) => notifyError('Error merging contacts', errorMessage(err)),
  });
  const options = (candidates.data?.items ?? [])
    .filter((c) => c.id !== contact.id)
    .map((c) => ({ value: String(c.id), label: describe(c) }));
  if (other && !options.some((o) => o.value === String(other.id))) {
    options.unshift({ value: String(other.id), label: describe(other) });
  }

  return (
    <Modal opened={opened} onClose={close} title="Merge with another contact" size={560}>
      <Stack>
        <Text size="sm">
          Keep <b>{fullName(contact)}</b>. The contact you choose moves into it: list memberships, family links,
          children and consent history; details missing here are filled in. An unsubscribe on either contact is kept.
        </Text>
        <Select
          label="Contact to merge"
          placeholder="Search contacts"
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: o }) => o}
          data={options}
          value={other ? String(other.id) : null}
          onChange={(v) => setOther(candidates.data?.items.find((c) => String(c.id) === v) ?? null)}
          nothingFoundMessage={candidates.isLoading ? 'Loading…' : 'No other contacts found'}
        />
        {other ? (
          <Alert color="orange" title="This cannot be undone here">
            {describe(other)} will be deleted after everything of theirs moves to {fullName(contact)}.
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={!other}
            loading={merge.isPending}
            onClick={() => other && merge.mutate({ id: contact.id, otherId: other.id })}
          >
            Merge contacts
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
