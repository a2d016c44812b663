import { Alert, Badge, Button, Group, Loader, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconArrowMerge, IconMail, IconPhone } from '@tabler/icons-react';
import { useState } from 'react';
import { formatDate } from '../../ui/format';
import { trpc } from '../../lib/trpc';
import { usePhoneFormatter } from '../../lib/phone';
import { errorMessage } from '../../lib/errors';
import { ChildrenPanel } from './children-panel';
import { FamilyRelationships } from './family-relationships';
import { MergeContactDialog } from './merge-dialog';
import { fullName, staffRoleLabel } from './labels';
import { ListMemberships } from './contact-list-memberships';
import { Consent } from './contact-consent';
import { ContactActivity } from './contact-activity';
import { ContactGifts } from '../giving/contact-gifts';

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
          {/* The church's own tags (imported or typed), every one, as they were written. */}
          {c.tags.map((t) => (
            <Badge key={t} variant="light" color="teal" tt="none">
              {t}
            </Badge>
          ))}
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
        {m.dateOfBirth ? <Text size="sm">Born {formatDate(m.dateOfBirth)}</Text> : null}
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
          <Tabs.Tab value="activity">Activity</Tabs.Tab>
          <Tabs.Tab value="giving">Giving</Tabs.Tab>
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
        <Tabs.Panel value="activity" pt="md">
          <ContactActivity contactId={c.id} />
        </Tabs.Panel>
        <Tabs.Panel value="giving" pt="md">
          <ContactGifts contactId={c.id} />
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
