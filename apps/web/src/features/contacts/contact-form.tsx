import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import {
  COUNTRY_CODES,
  STAFF_ROLES,
  contactFormSchema,
  isoToDmy,
  type ContactFormValues,
  type DuplicateContact,
} from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { FamilyPanel } from './family-panel';
import { fullName, type Contact } from './labels';

const TABS = ['basic', 'church', 'address', 'dependants'] as const;
type Tab = (typeof TABS)[number];

function initialValues(c?: Contact): ContactFormValues {
  const m = c?.metadata;
  return {
    firstName: c?.firstName ?? '',
    lastName: c?.lastName ?? '',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    metadata: {
      countryCode: (m?.countryCode ?? '+61') as '+61',
      dateOfBirth: isoToDmy(m?.dateOfBirth),
      notes: m?.notes ?? '',
      isChurchMember: m?.isChurchMember ?? false,
      isBaptised: m?.isBaptised ?? false,
      isSeeker: m?.isSeeker ?? false,
      isServiceStaff: m?.isServiceStaff ?? false,
      staffRole: (m?.staffRole ?? null) as null,
      wwccNumber: m?.wwccNumber ?? '',
      website: m?.website ?? '',
      address: m?.address ?? '',
      city: m?.city ?? '',
      state: m?.state ?? '',
      country: m?.country ?? '',
      postalCode: m?.postalCode ?? '',
    },
  };
}

const TAB_FIELDS: Record<Tab, string[]> = {
  basic: ['firstName', 'lastName', 'email', 'phone', 'metadata.countryCode', 'metadata.dateOfBirth'],
  church: [
    'metadata.isChurchMember',
    'metadata.isBaptised',
    'metadata.isSeeker',
    'metadata.isServiceStaff',
    'metadata.staffRole',
    'metadata.wwccNumber',
    'metadata.notes',
  ],
  address: [
    'metadata.address',
    'metadata.city',
    'metadata.state',
    'metadata.country',
    'metadata.postalCode',
    'metadata.website',
  ],
  dependants: [],
};

/** 'A contact with this email already exists' (or phone, or both) for one match. */
export function duplicateMessage(d: DuplicateContact): string {
  const what =
    d.matchedOn.length === 2
      ? 'this email and phone number'
      : d.matchedOn[0] === 'email'
        ? 'this email'
        : 'this phone number';
  return `A contact with ${what} already exists`;
}

/** Contacts with the typed email or phone (other than the one being edited), checked as the user types. */
function useDuplicates(values: ContactFormValues, excludeId: number | undefined): DuplicateContact[] {
  const email = values.email.trim();
  const phone = values.phone.trim();
  const [key] = useDebouncedValue(
    JSON.stringify({
      email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : undefined,
      phone: phone.replace(/\D/g, '').length >= 6 ? phone : undefined,
      countryCode: values.metadata?.countryCode,
      excludeId,
    }),
    400,
  );
  const input = JSON.parse(key) as { email?: string; phone?: string; countryCode?: '+61'; excludeId?: number };
  const query = trpc.contacts.duplicates.useQuery(input, { enabled: !!(input.email || input.phone) });
  return input.email || input.phone ? (query.data ?? []) : [];
}

function DuplicateWarning({ duplicates }: { duplicates: DuplicateContact[] }) {
  if (duplicates.length === 0) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title="Possible duplicate">
      <Stack gap={4}>
        {duplicates.map((d) => (
          <Text size="sm" key={d.id}>
            {duplicateMessage(d)}:{' '}
            <Anchor component={Link} to={`/contacts/detail/${d.id}`} target="_blank" rel="noopener" size="sm">
              open {fullName(d)}
            </Anchor>
          </Text>
        ))}
        <Text size="xs">
          You can still save; to combine two contacts later, use Merge with… in the contact&apos;s details.
        </Text>
      </Stack>
    </Alert>
  );
}

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
          <Stack>
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <TextInput label="First Name" withAsterisk {...form.getInputProps('firstName')} />
              <TextInput label="Last Name" withAsterisk {...form.getInputProps('lastName')} />
            </SimpleGrid>
            <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
            <Group grow align="flex-start" wrap="nowrap" gap="sm">
              <Select
                label="Country Code"
                data={COUNTRY_CODES.map((c) => ({ value: c.value, label: c.label }))}
                allowDeselect={false}
                maw={170}
                {...form.getInputProps('metadata.countryCode')}
              />
              <TextInput
                label="Phone Number"
                withAsterisk
                description="Enter number without leading zeros"
                inputMode="tel"
                {...form.getInputProps('phone')}
              />
            </Group>
            <DuplicateWarning duplicates={duplicates} />
            <TextInput
              label="Date of Birth"
              placeholder="DD/MM/YYYY"
              description="Enter in format: day/month/year (e.g., 31/12/1990)"
              {...form.getInputProps('metadata.dateOfBirth')}
            />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="church">
          <Stack>
            <Checkbox label="Church member" {...form.getInputProps('metadata.isChurchMember', { type: 'checkbox' })} />
            <Checkbox label="Baptised" {...form.getInputProps('metadata.isBaptised', { type: 'checkbox' })} />
            <Checkbox label="Seeker" {...form.getInputProps('metadata.isSeeker', { type: 'checkbox' })} />
            <Checkbox label="Service staff" {...form.getInputProps('metadata.isServiceStaff', { type: 'checkbox' })} />
            {form.values.metadata?.isServiceStaff ? (
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <Select
                  label="Staff Role"
                  placeholder="Choose a role"
                  data={STAFF_ROLES.map((r) => ({ value: r.value, label: r.label }))}
                  clearable
                  {...form.getInputProps('metadata.staffRole')}
                />
                <TextInput
                  label="WWCC Number"
                  description="Working With Children Check"
                  {...form.getInputProps('metadata.wwccNumber')}
                />
              </SimpleGrid>
            ) : null}
            <Textarea
              label="Notes"
              autosize
              minRows={4}
              styles={{ input: { minHeight: 100 } }}
              {...form.getInputProps('metadata.notes')}
            />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="address">
          <Stack>
            <TextInput label="Address" {...form.getInputProps('metadata.address')} />
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <TextInput label="City" {...form.getInputProps('metadata.city')} />
              <TextInput label="State" {...form.getInputProps('metadata.state')} />
              <TextInput label="Country" {...form.getInputProps('metadata.country')} />
              <TextInput label="Postal Code" {...form.getInputProps('metadata.postalCode')} />
            </SimpleGrid>
            <TextInput label="Website" placeholder="https://" {...form.getInputProps('metadata.website')} />
          </Stack>
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
