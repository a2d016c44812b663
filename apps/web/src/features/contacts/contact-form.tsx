import { Alert, Button, Group, Tabs } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { contactFormSchema, type ContactFormValues } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { FamilyPanel } from './family-panel';
import { type Contact } from './labels';
import { askAboutDuplicate, useDuplicates } from './contact-duplicates';
import { AddressTab, BasicInfoTab, ChurchInfoTab } from './contact-form-tabs';
import { TABS, initialValues, TAB_FIELDS, type Tab } from './contact-form-values';

export function ContactForm({
  contact,
  onSaved,
  onDirtyChange,
}: {
  contact?: Contact;
  onSaved?: (c: Contact) => void;
  /** Told whether the form holds typed, unsaved work (the sheet asks before closing then). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const [tab, setTab] = useState<Tab>('basic');
  const [saved, setSaved] = useState<Contact | undefined>(contact);
  const utils = trpc.useUtils();
  // Loaded before any screen (ChurchLocale): a new contact's phone starts in the church's country.
  const churchCode = trpc.settings.get.useQuery(undefined, { staleTime: 5 * 60_000 }).data?.defaultCountryCode;
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: initialValues(contact, churchCode),
    validate: schemaResolver(contactFormSchema, { sync: true }),
  });
  const isEdit = !!saved;
  const dirty = form.isDirty();
  useEffect(() => onDirtyChange?.(dirty), [dirty, onDirtyChange]);
  const duplicates = useDuplicates(form.values, saved?.id);

  const refresh = async () => {
    await Promise.all([
      utils.contacts.find.invalidate(),
      utils.contacts.duplicates.invalidate(),
      utils.contactLists.list.invalidate(),
    ]);
  };
  const create = useSave(trpc.contacts.create, {
    success: ['Contact created successfully', 'The contact has been added to your database.'],
    errorTitle: 'Error creating contact',
    answer: (error, input) => askAboutDuplicate(error, () => create.mutate({ ...input, ifDuplicate: 'save' })),
    invalidate: refresh,
    onSuccess: (c) => {
      form.setValues(initialValues(undefined, churchCode));
      form.resetDirty(initialValues(undefined, churchCode));
      setTab('basic');
      onSaved?.(c);
    },
  });
  const update = useSave(trpc.contacts.update, {
    success: ['Contact updated successfully', 'The contact information has been updated.'],
    errorTitle: 'Error updating contact',
    answer: (error, input) => askAboutDuplicate(error, () => update.mutate({ ...input, ifDuplicate: 'save' })),
    onSuccess: async (c) => {
      setSaved(c);
      form.resetDirty();
      utils.contacts.get.setData({ id: c.id }, c);
      await refresh();
      onSaved?.(c);
    },
  });
  const pending = create.isPending || update.isPending;

  // Saving a second contact with the same email or phone is allowed, but only deliberately: the
  // server looks (whatever the warning above has had time to show) and the answer asks first.
  const submit = form.onSubmit(
    (values) => {
      const payload = contactFormSchema.parse(values);
      if (saved) update.mutate({ ...payload, id: saved.id, ifDuplicate: 'ask' });
      else create.mutate({ ...payload, ifDuplicate: 'ask' });
    },
    (errors) => {
      // Show the first tab with a problem.
      const first = TABS.find((t) => TAB_FIELDS[t].some((f) => !!errors[f]));
      if (first) setTab(first);
    },
  );

  const index = TABS.indexOf(tab);
  return (
    <form onSubmit={submit} noValidate>
      <Tabs value={tab} onChange={(v) => setTab((v as Tab) ?? 'basic')} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="basic">Basic Info</Tabs.Tab>
          <Tabs.Tab value="church">Church Info</Tabs.Tab>
          <Tabs.Tab value="address">Address</Tabs.Tab>
          <Tabs.Tab value="dependants">Dependants</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="basic">
          <BasicInfoTab form={form} duplicates={duplicates} />
        </Tabs.Panel>

        <Tabs.Panel value="church">
          <ChurchInfoTab form={form} />
        </Tabs.Panel>

        <Tabs.Panel value="address">
          <AddressTab form={form} />
        </Tabs.Panel>

        <Tabs.Panel value="dependants">
          {saved ? (
            <FamilyPanel contact={saved} />
          ) : (
            <Alert icon={<IconInfoCircle />} title="Save the contact first" color="indigo">
              You need to save the contact before you can add family members and children.
            </Alert>
          )}
        </Tabs.Panel>
      </Tabs>

      <Group justify="space-between" mt="xl">
        <Button variant="default" disabled={index === 0} onClick={() => setTab(TABS[index - 1]!)}>
          Previous
        </Button>
        <Group gap="xs">
          {index < TABS.length - 1 ? (
            <Button variant="light" onClick={() => setTab(TABS[index + 1]!)}>
              Next
            </Button>
          ) : null}
          <Button type="submit" disabled={pending}>
            {isEdit
              ? update.isPending
                ? 'Updating...'
                : 'Update Contact'
              : create.isPending
                ? 'Saving...'
                : 'Save Contact'}
          </Button>
        </Group>
      </Group>
    </form>
  );
}
