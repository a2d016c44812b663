import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { type ContactFormValues, type DuplicateContact } from '@lampstand/api/schemas/contacts';
import { trpc } from '../../lib/trpc';
import { fullName } from './labels';

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
export function useDuplicates(values: ContactFormValues, excludeId: number | undefined): DuplicateContact[] {
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

export function DuplicateWarning({ duplicates }: { duplicates: DuplicateContact[] }) {
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
