import { Alert, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { contactFormSchema, type ContactFormValues } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { FamilyPanel } from './family-panel';
import { fullName, type Contact } from './labels';
import { duplicateMessage, useDuplicates } from './contact-duplicates';
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
  const form = useForm<ContactFormValues>({
    mode: 'controlled',
    initialValues: initialValues(contact),
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
    invalidate: refresh,
    onSuccess: (c) => {
      form.setValues(initialValues());
      form.resetDirty(initialValues());
      setTab('basic');
      onSaved?.(c);
    },
  });
  const update = useSave(trpc.contacts.update, {
    success: ['Contact updated successfully', 'The contact information has been updated.'],
    errorTitle: 'Error updating contact',
    onSuccess: async (c) => {
      setSaved(c);
      form.resetDirty();
      utils.contacts.get.setData({ id: c.id }, c);
      await refresh();
      onSaved?.(c);
    },
  });
  const pending = create.isPending || update.isPending;

  const save = (values: ContactFormValues) => {
    const payload = contactFormSchema.parse(values);
    if (saved) update.mutate({ ...payload, id: saved.id });
    else create.mutate(payload);
  };

  const submit = form.onSubmit(
    (values) => {
      if (duplicates.length === 0) return save(values);
      // Saving a second contact with the same email or phone is allowed, but only deliberately.
      modals.openConfirmModal({
        title: 'Save a possible duplicate?',
        children: (
          <Stack gap="xs">
            {duplicates.map((d) => (
              <Text size="sm" key={d.id}>
                {duplicateMessage(d)}: {fullName(d)}.
              </Text>
            ))}
            <Text size="sm">Save this contact anyway?</Text>
          </Stack>
        ),
        labels: { confirm: 'Save anyway', cancel: 'Go back' },
        onConfirm: () => save(values),
      });
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
