import { Alert, Button, Checkbox, Group, Select, SimpleGrid, Stack, Tabs, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { COUNTRY_CODES, STAFF_ROLES, createContactSchema, dmyToIso, isoToDmy } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { notifyError, notifySuccess } from '../../ui/notify';
import { FamilyPanel } from './family-panel';
import type { Contact } from './labels';

const TABS = ['basic', 'church', 'address', 'dependants'] as const;
type Tab = (typeof TABS)[number];

interface FormValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  countryCode: string;
  dateOfBirth: string;
  notes: string;
  isChurchMember: boolean;
  isBaptised: boolean;
  isSeeker: boolean;
  isServiceStaff: boolean;
  staffRole: string;
  wwccNumber: string;
  website: string;
  address: string;
  city: string;
  state: string;
  country: string;
  postalCode: string;
}

function initialValues(c?: Contact): FormValues {
  const m = c?.metadata;
  return {
    firstName: c?.firstName ?? '',
    lastName: c?.lastName ?? '',
    email: c?.email ?? '',
    phone: c?.phone ?? '',
    countryCode: m?.countryCode ?? '+61',
    dateOfBirth: isoToDmy(m?.dateOfBirth),
    notes: m?.notes ?? '',
    isChurchMember: m?.isChurchMember ?? false,
    isBaptised: m?.isBaptised ?? false,
    isSeeker: m?.isSeeker ?? false,
    isServiceStaff: m?.isServiceStaff ?? false,
    staffRole: m?.staffRole ?? '',
    wwccNumber: m?.wwccNumber ?? '',
    website: m?.website ?? '',
    address: m?.address ?? '',
    city: m?.city ?? '',
    state: m?.state ?? '',
    country: m?.country ?? '',
    postalCode: m?.postalCode ?? '',
  };
}

/** The API payload; null/undefined strings become empty strings, an unparseable date of birth is dropped. */
export function toPayload(v: FormValues) {
  return {
    firstName: v.firstName ?? '',
    lastName: v.lastName ?? '',
    email: v.email ?? '',
    phone: v.phone ?? '',
    metadata: {
      countryCode: v.countryCode as '+61',
      dateOfBirth: dmyToIso(v.dateOfBirth) ?? '',
      notes: v.notes ?? '',
      isChurchMember: v.isChurchMember,
      isBaptised: v.isBaptised,
      isSeeker: v.isSeeker,
      isServiceStaff: v.isServiceStaff,
      staffRole: v.isServiceStaff ? (v.staffRole as '') : '',
      wwccNumber: v.isServiceStaff ? v.wwccNumber : '',
      website: v.website ?? '',
      address: v.address ?? '',
      city: v.city ?? '',
      state: v.state ?? '',
      country: v.country ?? '',
      postalCode: v.postalCode ?? '',
    },
  };
}

/** Validate with the server's schema; metadata.x errors show on field x. */
function validate(values: FormValues): Record<string, string> {
  const r = createContactSchema.safeParse(toPayload(values));
  if (r.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = String(issue.path[issue.path.length - 1]);
    errors[key] ??= issue.message;
  }
  return errors;
}

const TAB_FIELDS: Record<Tab, (keyof FormValues)[]> = {
  basic: ['firstName', 'lastName', 'email', 'phone', 'countryCode', 'dateOfBirth'],
  church: ['isChurchMember', 'isBaptised', 'isSeeker', 'isServiceStaff', 'staffRole', 'wwccNumber', 'notes'],
  address: ['address', 'city', 'state', 'country', 'postalCode', 'website'],
  dependants: [],
};

export function ContactForm({ contact, onSaved }: { contact?: Contact; onSaved?: (c: Contact) => void }) {
  const [tab, setTab] = useState<Tab>('basic');
  const [saved, setSaved] = useState<Contact | undefined>(contact);
  const utils = trpc.useUtils();
  const form = useForm<FormValues>({ mode: 'controlled', initialValues: initialValues(contact), validate });
  const isEdit = !!saved;

  const refresh = async () => {
    await Promise.all([
      utils.contacts.find.invalidate(),
      utils.contacts.list.invalidate(),
      utils.contactLists.list.invalidate(),
    ]);
  };
  const create = trpc.contacts.create.useMutation({
    onSuccess: async (c) => {
      notifySuccess('Contact created successfully', 'The contact has been added to your database.');
      await refresh();
      form.setValues(initialValues());
      form.resetDirty();
      setTab('basic');
      onSaved?.(c);
    },
    onError: (err) => notifyError('Error creating contact', errorMessage(err)),
  });
  const update = trpc.contacts.update.useMutation({
    onSuccess: async (c) => {
      notifySuccess('Contact updated successfully', 'The contact information has been updated.');
      setSaved(c);
      utils.contacts.get.setData({ id: c.id }, c);
      await refresh();
      onSaved?.(c);
    },
    onError: (err) => notifyError('Error updating contact', errorMessage(err)),
  });
  const pending = create.isPending || update.isPending;

  const submit = form.onSubmit(
    (values) => {
      const payload = toPayload(values);
      if (isEdit) {
        if (!saved?.id) {
          notifyError('Error updating contact', 'Contact ID is required for updates');
          return;
        }
        update.mutate({ id: saved.id, ...payload });
      } else create.mutate(payload);
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
                {...form.getInputProps('countryCode')}
              />
              <TextInput
                label="Phone Number"
                withAsterisk
                description="Enter number without leading zeros"
                inputMode="tel"
                {...form.getInputProps('phone')}
              />
            </Group>
            <TextInput
              label="Date of Birth"
              placeholder="DD/MM/YYYY"
              description="Enter in format: day/month/year (e.g., 31/12/1990)"
              {...form.getInputProps('dateOfBirth')}
            />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="church">
          <Stack>
            <Checkbox label="Church member" {...form.getInputProps('isChurchMember', { type: 'checkbox' })} />
            <Checkbox label="Baptised" {...form.getInputProps('isBaptised', { type: 'checkbox' })} />
            <Checkbox label="Seeker" {...form.getInputProps('isSeeker', { type: 'checkbox' })} />
            <Checkbox label="Service staff" {...form.getInputProps('isServiceStaff', { type: 'checkbox' })} />
            {form.values.isServiceStaff ? (
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                <Select
                  label="Staff Role"
                  placeholder="Choose a role"
                  data={STAFF_ROLES.map((r) => ({ value: r.value, label: r.label }))}
                  clearable
                  {...form.getInputProps('staffRole')}
                />
                <TextInput
                  label="WWCC Number"
                  description="Working With Children Check"
                  {...form.getInputProps('wwccNumber')}
                />
              </SimpleGrid>
            ) : null}
            <Textarea
              label="Notes"
              autosize
              minRows={4}
              styles={{ input: { minHeight: 100 } }}
              {...form.getInputProps('notes')}
            />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="address">
          <Stack>
            <TextInput label="Address" {...form.getInputProps('address')} />
            <SimpleGrid cols={{ base: 1, xs: 2 }}>
              <TextInput label="City" {...form.getInputProps('city')} />
              <TextInput label="State" {...form.getInputProps('state')} />
              <TextInput label="Country" {...form.getInputProps('country')} />
              <TextInput label="Postal Code" {...form.getInputProps('postalCode')} />
            </SimpleGrid>
            <TextInput label="Website" placeholder="https://" {...form.getInputProps('website')} />
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
