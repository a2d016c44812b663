import { Checkbox, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import { STAFF_ROLES, type ContactFormValues, type DuplicateContact } from '@lampstand/api/schemas/contacts';
import { callingCodeOptions } from '@lampstand/api/shared/locale';
import { trpc } from '../../lib/trpc';
import { DuplicateWarning } from './contact-duplicates';

type ContactFormApi = UseFormReturnType<ContactFormValues>;

/** The name, email and phone (with the possible duplicates they match) and date of birth. */
export function BasicInfoTab({ form, duplicates }: { form: ContactFormApi; duplicates: DuplicateContact[] }) {
  const country = trpc.settings.get.useQuery(undefined, { staleTime: 5 * 60_000 }).data?.country ?? undefined;
  const codes = useMemo(() => callingCodeOptions(country), [country]);
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="First Name" withAsterisk {...form.getInputProps('firstName')} />
        <TextInput label="Last Name" withAsterisk {...form.getInputProps('lastName')} />
      </SimpleGrid>
      <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
      <Group grow align="flex-start" wrap="nowrap" gap="sm">
        <Select
          label="Country Code"
          data={codes}
          searchable
          allowDeselect={false}
          maw={170}
          comboboxProps={{ width: 300, position: 'bottom-start' }}
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
  );
}

/** Membership, baptism, seeker and staff (role, WWCC), and notes. */
export function ChurchInfoTab({ form }: { form: ContactFormApi }) {
  return (
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
  );
}

/** The postal address and website. */
export function AddressTab({ form }: { form: ContactFormApi }) {
  return (
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
  );
}
