import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { type ContactFormValues, type DuplicateContact } from '@lampstand/api/schemas/contacts';
import { duplicateMessage } from '@lampstand/api/shared/contacts';
import { trpc } from '../../lib/trpc';
import { fieldIssue, type SaveError } from '../../lib/use-save';
import { fullName } from './labels';

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

/**
 * The server's answer to a save with `ifDuplicate: 'ask'` (a 409 naming the contacts with this email
 * or phone) as a question; 'Save anyway' saves again with `ifDuplicate: 'save'`. False for any other
 * failure, which the save shows as usual.
 */
export function askAboutDuplicate(error: SaveError, saveAnyway: () => void): boolean {
  const question = error.data?.code === 'CONFLICT' ? fieldIssue(error, 'ifDuplicate') : undefined;
  if (!question) return false;
  modals.openConfirmModal({
    title: 'Save a possible duplicate?',
    children: (
      <Stack gap="xs">
        <Text size="sm">{question}</Text>
        <Text size="sm">Save this contact anyway?</Text>
      </Stack>
    ),
    labels: { confirm: 'Save anyway', cancel: 'Go back' },
    onConfirm: saveAnyway,
  });
  return true;
}
