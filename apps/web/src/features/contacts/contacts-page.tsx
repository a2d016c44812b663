import { Button, Drawer, Group, Tabs } from '@mantine/core';
import { IconBabyCarriage, IconDownload, IconPlus, IconUpload } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import { confirmDiscard } from '../../ui/confirm';
import { PageHeader } from '../../ui/page-header';
import { ChildGroupsDialog } from './child-groups-dialog';
import { ContactDetails } from './contact-details';
import { ContactForm } from './contact-form';
import { ImportDialog } from './import-dialog';
import { ListsTab } from './lists-tab';
import { type Contact } from './labels';
import { type TabValue, ContactsTable } from './contacts-table';

export function ContactsPage() {
  const [params, setParams] = useSearchParams();
  const tab = (
    ['all', 'members', 'staff', 'lists'].includes(params.get('tab') ?? '') ? params.get('tab') : 'all'
  ) as TabValue;
  const location = useLocation();
  // The dashboard's 'Add Contacts' quick action opens /contacts/new.
  const [sheet, setSheet] = useState<
    { mode: 'add' } | { mode: 'edit'; contact: Contact } | { mode: 'view'; contact: Contact } | null
  >(location.pathname === '/contacts/new' ? { mode: 'add' } : null);
  // Typed, unsaved work in the Add/Edit sheet: closing it asks first.
  const dirty = useRef(false);
  const setDirty = (d: boolean) => {
    dirty.current = d;
  };
  const closeSheet = () => {
    const close = () => {
      dirty.current = false;
      setSheet(null);
    };
    if (dirty.current && sheet?.mode !== 'view') confirmDiscard({ what: 'this contact', onDiscard: close });
    else close();
  };
  const [importing, setImporting] = useState(false);
  const [groups, setGroups] = useState(false);
  const setTab = (v: string | null) => {
    const next = new URLSearchParams(params);
    if (!v || v === 'all') next.delete('tab');
    else next.set('tab', v);
    setParams(next, { replace: true });
  };
  const table = (t: 'all' | 'members' | 'staff') => (
    <ContactsTable
      tab={t}
      onAdd={() => setSheet({ mode: 'add' })}
      onView={(c) => setSheet({ mode: 'view', contact: c })}
      onEdit={(c) => setSheet({ mode: 'edit', contact: c })}
    />
  );
  return (
    <>
      <PageHeader
        title="Contacts"
        description="Members, staff, families and the lists your campaigns go to."
        action={
          <Group gap="xs">
            <Button variant="default" leftSection={<IconBabyCarriage size={18} />} onClick={() => setGroups(true)}>
              Child Groups
            </Button>
            <Button variant="default" leftSection={<IconUpload size={18} />} onClick={() => setImporting(true)}>
              Import CSV
            </Button>
            <Button
              variant="default"
              leftSection={<IconDownload size={18} />}
              component="a"
              href="/api/contacts/export"
            >
              Export CSV
            </Button>
            <Button leftSection={<IconPlus size={18} />} onClick={() => setSheet({ mode: 'add' })}>
              Add Contact
            </Button>
          </Group>
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="all">All Contacts</Tabs.Tab>
          <Tabs.Tab value="members">Church Members</Tabs.Tab>
          <Tabs.Tab value="staff">Staff</Tabs.Tab>
          <Tabs.Tab value="lists">Contact Lists</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="all">{table('all')}</Tabs.Panel>
        <Tabs.Panel value="members">{table('members')}</Tabs.Panel>
        <Tabs.Panel value="staff">{table('staff')}</Tabs.Panel>
        <Tabs.Panel value="lists">
          <ListsTab />
        </Tabs.Panel>
      </Tabs>

      <Drawer
        opened={!!sheet}
        onClose={closeSheet}
        position="right"
        size={600}
        title={sheet?.mode === 'add' ? 'Add Contact' : sheet?.mode === 'edit' ? 'Edit Contact' : 'Contact Details'}
      >
        {sheet?.mode === 'add' ? <ContactForm onSaved={() => setSheet(null)} onDirtyChange={setDirty} /> : null}
        {sheet?.mode === 'edit' ? (
          <ContactForm key={sheet.contact.id} contact={sheet.contact} onDirtyChange={setDirty} />
        ) : null}
        {sheet?.mode === 'view' ? <ContactDetails contactId={sheet.contact.id} /> : null}
      </Drawer>
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
      <ChildGroupsDialog opened={groups} onClose={() => setGroups(false)} />
    </>
  );
}
