import { Tabs } from '@mantine/core';
import { type Contact } from './labels';
import { FamilyRelationships } from './family-relationships';
import { ChildrenPanel } from './children-panel';

/** The spec's family panel: 'Family Relationships' and 'Children'. */
export function FamilyPanel({
  contact,
  initialTab = 'family',
}: {
  contact: Contact;
  initialTab?: 'family' | 'children';
}) {
  return (
    <Tabs defaultValue={initialTab} keepMounted={false}>
      <Tabs.List mb="sm">
        <Tabs.Tab value="family">Family Relationships</Tabs.Tab>
        <Tabs.Tab value="children">Children</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="family">
        <FamilyRelationships contact={contact} />
      </Tabs.Panel>
      <Tabs.Panel value="children">
        <ChildrenPanel contact={contact} />
      </Tabs.Panel>
    </Tabs>
  );
}
