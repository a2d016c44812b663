import { Alert, Button, Checkbox, Group, Loader, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSave } from '../../lib/use-save';
import { notifySuccess } from '../../ui/notify';
import { fullName, type ContactList } from './labels';

export function AddContactsModal({ list, onClose }: { list: ContactList; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [search, setSearch] = useState('');
  const candidates = trpc.contacts.find.useQuery({ search, tab: 'all', page: 1, pageSize: 100 });
  // The list's members among the same first 100 matches: the same search, order and page size
  // within the list, so every member among the candidates is in it (never the whole list).
  const members = trpc.contacts.find.useQuery({ search, tab: 'all', listId: list.id, page: 1, pageSize: 100 });
  const [selected, setSelected] = useState<number[]>([]);
  const add = useSave(trpc.contactLists.addContact, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to add contact to list',
  });
  const [saving, setSaving] = useState(false);
  const inList = new Set((members.data?.items ?? []).map((c) => c.id));
  const available = (candidates.data?.items ?? []).filter((c) => !inList.has(c.id));
  // One contact at a time, one toast for all of them; a refusal stops the rest (its toast says why).
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
    } catch {
      // The kit has shown the refusal.
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
