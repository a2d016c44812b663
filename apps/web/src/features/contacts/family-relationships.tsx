import { ActionIcon, Alert, Anchor, Button, Group, Loader, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconLink, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { RELATIONSHIPS } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { showFailure, useSave } from '../../lib/use-save';
import { errorMessage } from '../../lib/errors';
import { fullName, relationshipSentence, type Contact } from './labels';
import { contactChoiceLabel } from './contact-search';

/** A contact's family links, each read with its direction ('Emma is Mary's child'), and the add form. */
export function FamilyRelationships({ contact }: { contact: Contact }) {
  const utils = trpc.useUtils();
  const family = trpc.family.list.useQuery({ id: contact.id });
  const [search, setSearch] = useState('');
  const candidates = trpc.contacts.find.useQuery({ search, tab: 'all', page: 1, pageSize: 50 });
  const [relatedId, setRelatedId] = useState<string | null>(null);
  const [relationship, setRelationship] = useState<string | null>(null);
  const refresh = () => utils.family.list.invalidate();
  const add = useSave(trpc.family.add, {
    success: 'Family member added',
    errorTitle: 'Error adding family member',
    onSuccess: async () => {
      setRelatedId(null);
      setRelationship(null);
      await refresh();
    },
  });
  const remove = useSave(trpc.family.remove, {
    success: 'Family member removed',
    errorTitle: 'Error removing family member',
    invalidate: refresh,
  });

  const linked = new Set((family.data ?? []).map((f) => f.contact.id));
  const options = (candidates.data?.items ?? [])
    .filter((c) => c.id !== contact.id && !linked.has(c.id))
    .map((c) => ({ value: String(c.id), label: contactChoiceLabel(c) }));

  const submit = () => {
    if (!relatedId || !relationship) {
      showFailure({ errorTitle: 'Missing information' }, 'Please select a contact and relationship type.');
      return;
    }
    add.mutate({ id: contact.id, relatedContactId: Number(relatedId), relationship: relationship as 'spouse' });
  };

  return (
    <Stack>
      {family.isLoading ? (
        <Loader size="sm" aria-label="Loading family" />
      ) : family.error ? (
        <Alert color="red" title="Error loading family relationships">
          {errorMessage(family.error)}
        </Alert>
      ) : family.data && family.data.length > 0 ? (
        <Stack gap="xs">
          {family.data.map((f) => (
            <Paper key={f.link.id} withBorder p="sm">
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm">
                  <Anchor component={Link} to={`/contacts/detail/${f.contact.id}`} target="_blank" rel="noopener">
                    {fullName(f.contact)}
                  </Anchor>{' '}
                  {relationshipSentence(f, contact)}
                </Text>
                <Tooltip label="Remove">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${fullName(f.contact)}`}
                    loading={remove.isPending}
                    onClick={() => remove.mutate({ linkId: f.link.id })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Text c="dimmed" size="sm">
          No family relationships
        </Text>
      )}

      <Paper withBorder p="sm" bg="gray.0">
        <Text fw={600} size="sm" mb="xs">
          Add family member
        </Text>
        <Stack gap="xs">
          <Select
            label="Family member"
            placeholder="Search contacts"
            searchable
            onSearchChange={setSearch}
            searchValue={search}
            data={options}
            value={relatedId}
            onChange={setRelatedId}
            nothingFoundMessage="No available contacts"
            filter={({ options: o }) => o}
          />
          <Select
            label="Relationship"
            placeholder="Choose"
            data={RELATIONSHIPS.map((r) => ({ value: r.value, label: r.label }))}
            value={relationship}
            onChange={setRelationship}
          />
          <Group justify="flex-end">
            <Button size="sm" leftSection={<IconLink size={16} />} onClick={submit} loading={add.isPending}>
              Add Family Member
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
