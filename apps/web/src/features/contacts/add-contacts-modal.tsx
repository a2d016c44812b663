import { Alert, Button, Checkbox, Group, Loader, Modal, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSave } from '../../lib/use-save';
import { notifySuccess } from '../../ui/notify';
import { confirmAction } from '../../ui/confirm';
import { formatNumber } from '../../ui/format';
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
  const [allMatching, setAllMatching] = useState(false);
  const inList = new Set((members.data?.items ?? []).map((c) => c.id));
  const available = (candidates.data?.items ?? []).filter((c) => !inList.has(c.id));
  // Everyone the search finds who is not on the list yet: the same search over the whole church
  // and within the list, so the count is exact however many contacts there are.
  const matchingCount = Math.max(0, (candidates.data?.total ?? 0) - (members.data?.total ?? 0));
  const addMatching = useSave(trpc.contactLists.addMatching, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to add contacts to list',
    success: (out) => ['Contacts added to list', `${formatNumber(out.added)} added to ${list.name}.`],
    invalidate: (u) => [
      u.contactLists.list.invalidate(),
      u.contacts.find.invalidate(),
      u.contactLists.ofContact.invalidate(),
    ],
    onSuccess: onClose,
  });
  const confirmAll = () =>
    confirmAction({
      title: `Add ${formatNumber(matchingCount)} ${matchingCount === 1 ? 'person' : 'people'} to ${list.name}?`,
      text: search.trim()
        ? `Everyone matching '${search.trim()}' who is not on the list yet is added.`
        : 'Everyone in your contacts who is not on the list yet is added.',
      confirm: 'Add to List',
      onConfirm: () => addMatching.mutate({ listId: list.id, search: search.trim() || undefined, tab: 'all' }),
    });
  const selectedCount = allMatching ? matchingCount : selected.length;
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
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setAllMatching(false);
          }}
        />
        {matchingCount > 0 ? (
          <Checkbox
            label={`Select all ${formatNumber(matchingCount)} ${search.trim() ? 'matching' : 'contacts'}`}
            checked={allMatching}
            onChange={(e) => setAllMatching(e.currentTarget.checked)}
          />
        ) : null}
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
                  checked={allMatching || selected.includes(c.id)}
                  disabled={allMatching}
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
            {formatNumber(selectedCount)} selected
          </Text>
          <Group>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              disabled={selectedCount === 0}
              loading={saving || addMatching.isPending}
              onClick={() => (allMatching ? confirmAll() : void save())}
            >
              Add to List
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
