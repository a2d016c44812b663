import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowMerge, IconMail, IconPhone, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { isoToDmy } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { usePhoneFormatter } from '../../lib/phone';
import { confirmDestructive } from '../../ui/confirm';
import { errorMessage } from '../../lib/errors';
import { formatDate, formatTime } from '../../ui/format';
import { notifyError, notifySuccess } from '../../ui/notify';
import { ChildrenPanel, FamilyRelationships } from './family-panel';
import { MergeContactDialog } from './merge-dialog';
import { LIST_TYPE_LABELS, fullName, staffRoleLabel, type Contact } from './labels';

function ListMemberships({ contact }: { contact: Contact }) {
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
  const add = trpc.contactLists.addContact.useMutation({
    onSuccess: async () => {
      notifySuccess('Contact added to list');
      setListId(null);
      await refresh();
    },
    onError: (err) => notifyError('Error', `Failed to add contact to list: ${errorMessage(err)}`),
  });
  const remove = trpc.contactLists.removeContact.useMutation({
    onSuccess: async () => {
      notifySuccess('Contact removed from list');
      await refresh();
    },
    onError: (err) => notifyError('Error', `Failed to remove contact from list: ${errorMessage(err)}`),
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
              if (!listId) return notifyError('Error', 'Failed to add contact to list: Please select a contact list.');
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

function Consent({ contact }: { contact: Contact }) {
  const utils = trpc.useUtils();
  const history = trpc.contacts.consentHistory.useQuery({ id: contact.id });
  const update = trpc.contacts.updateConsent.useMutation({
    onSuccess: async (c) => {
      utils.contacts.get.setData({ id: c.id }, c);
      notifySuccess('Consent updated', `${fullName(c)}: email ${c.consent.email.status}, SMS ${c.consent.sms.status}.`);
      await Promise.all([history.refetch(), utils.contacts.find.invalidate()]);
    },
    onError: (err) => notifyError('Error updating contact', errorMessage(err)),
  });
  const row = (channel: 'email' | 'sms', label: string) => {
    const state = contact.consent[channel];
    return (
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={0}>
          <Switch
            label={`${label}: ${state.status === 'subscribed' ? 'Subscribed' : 'Unsubscribed'}`}
            checked={state.status === 'subscribed'}
            disabled={update.isPending}
            onChange={(e) =>
              update.mutate({
                id: contact.id,
                channel,
                status: e.currentTarget.checked ? 'subscribed' : 'unsubscribed',
              })
            }
          />
          {state.changedAt ? (
            <Text size="xs" c="dimmed" ml={52}>
              Changed {formatDate(state.changedAt)} at {formatTime(state.changedAt)} by {state.source}
            </Text>
          ) : null}
        </Stack>
      </Group>
    );
  };
  return (
    <Paper withBorder p="sm">
      <Text fw={600} size="sm" mb="xs">
        Consent
      </Text>
      <Stack gap="xs">
        {row('email', 'Email')}
        {row('sms', 'SMS')}
        {history.data && history.data.length > 0 ? (
          <Text size="xs" c="dimmed">
            History: {history.data.map((e) => `${formatDate(e.at)} ${e.channel} ${e.status} (${e.source})`).join(' · ')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

export function ContactDetails({ contactId, initialTab }: { contactId: number; initialTab?: string | null }) {
  const contact = trpc.contacts.get.useQuery({ id: contactId });
  const phone = usePhoneFormatter();
  const [tab, setTab] = useState<string>(initialTab ?? 'lists');
  const [merging, setMerging] = useState(false);
  if (contact.isLoading) return <Loader aria-label="Loading contact" />;
  if (!contact.data && (!contact.error || contact.error.data?.code === 'NOT_FOUND')) {
    return <Text>Contact not found</Text>;
  }
  if (!contact.data) {
    return (
      <Alert color="red" title="Error loading contact">
        <Text size="sm" mb="xs">
          {errorMessage(contact.error)}
        </Text>
        <Button size="xs" variant="light" color="red" onClick={() => void contact.refetch()}>
          Retry
        </Button>
      </Alert>
    );
  }
  const c = contact.data;
  const m = c.metadata;
  return (
    <Stack>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3}>{fullName(c)}</Title>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconArrowMerge size={16} />}
            onClick={() => setMerging(true)}
          >
            Merge with…
          </Button>
        </Group>
        <Group gap="xs">
          {m.isChurchMember ? <Badge variant="light">Member</Badge> : null}
          {m.isBaptised ? (
            <Badge variant="light" color="teal">
              Baptised
            </Badge>
          ) : null}
          {m.isSeeker ? (
            <Badge variant="light" color="orange">
              Seeker
            </Badge>
          ) : null}
          {m.isServiceStaff ? (
            <Badge variant="light" color="grape">
              Staff
            </Badge>
          ) : null}
        </Group>
      </Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
        <Group gap={6} wrap="nowrap">
          <IconMail size={16} aria-hidden />
          <Text size="sm">{c.email || '—'}</Text>
        </Group>
        <Group gap={6} wrap="nowrap">
          <IconPhone size={16} aria-hidden />
          <Text size="sm">{phone(c) || '—'}</Text>
        </Group>
        {m.dateOfBirth ? <Text size="sm">Born {isoToDmy(m.dateOfBirth)}</Text> : null}
        {m.address || m.city ? (
          <Text size="sm">{[m.address, m.city, m.state, m.postalCode, m.country].filter(Boolean).join(', ')}</Text>
        ) : null}
      </SimpleGrid>
      <Consent contact={c} />
      <Tabs value={tab} onChange={(v) => setTab(v ?? 'lists')} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="lists">List Memberships</Tabs.Tab>
          <Tabs.Tab value="family">Family</Tabs.Tab>
          <Tabs.Tab value="children">Children</Tabs.Tab>
          <Tabs.Tab value="notes">Notes</Tabs.Tab>
          {m.isServiceStaff ? <Tabs.Tab value="staff">Staff Info</Tabs.Tab> : null}
        </Tabs.List>
        <Tabs.Panel value="lists" pt="md">
          <ListMemberships contact={c} />
        </Tabs.Panel>
        <Tabs.Panel value="family" pt="md">
          <FamilyRelationships contact={c} />
        </Tabs.Panel>
        <Tabs.Panel value="children" pt="md">
          <ChildrenPanel contact={c} />
        </Tabs.Panel>
        <Tabs.Panel value="notes" pt="md">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} c={m.notes ? undefined : 'dimmed'}>
            {m.notes || 'No notes available'}
          </Text>
        </Tabs.Panel>
        {m.isServiceStaff ? (
          <Tabs.Panel value="staff" pt="md">
            <Stack gap={4}>
              <Text size="sm">
                <b>Staff role:</b> {staffRoleLabel(m.staffRole) || 'Not set'}
              </Text>
              <Text size="sm">
                <b>WWCC number:</b> {m.wwccNumber || 'Not set'}
              </Text>
            </Stack>
          </Tabs.Panel>
        ) : null}
      </Tabs>
      <MergeContactDialog contact={c} opened={merging} onClose={() => setMerging(false)} />
    </Stack>
  );
}
