import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { fullName, type Contact } from './labels';
import { contactChoiceLabel, useContactSearch } from './contact-search';

/**
 * 'Merge with…': choose another contact to merge into this one. Everything of the other contact's
 * (lists, family, consent history, giving, groups, check-ins…) moves here and it is deleted (the
 * server logs the merge).
 */
export function MergeContactDialog({
  contact,
  opened,
  onClose,
}: {
  contact: Contact;
  opened: boolean;
  onClose: () => void;
}) {
  const utils = trpc.useUtils();
  const [other, setOther] = useState<Contact | null>(null);
  const candidates = useContactSearch({
    enabled: opened,
    chosen: other,
    exclude: (c) => c.id === contact.id,
    nothingFound: 'No other contacts found',
  });
  const close = () => {
    setOther(null);
    candidates.reset();
    onClose();
  };
  const merge = useSave(trpc.contacts.merge, {
    success: (result) => [
      'Contacts merged',
      `${fullName(other ?? result.contact)} was merged into ${fullName(result.contact)}.`,
    ],
    errorTitle: 'Error merging contacts',
    onSuccess: async (result) => {
      utils.contacts.get.setData({ id: result.contact.id }, result.contact);
      close();
      await Promise.all([
        utils.contacts.invalidate(),
        utils.contactLists.invalidate(),
        utils.family.invalidate(),
        utils.children.invalidate(),
      ]);
    },
  });

  return (
    <Modal opened={opened} onClose={close} title="Merge with another contact" size={560}>
      <Stack>
        <Text size="sm">
          Keep <b>{fullName(contact)}</b>. The contact you choose moves into it: list memberships, family links,
          children and consent history, gifts and recurring gifts, groups and attendance, check-ins, journeys and
          conversations; details missing here are filled in. An unsubscribe on either contact is kept.
        </Text>
        <Select
          label="Contact to merge"
          placeholder="Search contacts"
          {...candidates.selectProps}
          value={other ? String(other.id) : null}
          onChange={(v) => setOther(candidates.byValue(v))}
        />
        {other ? (
          <Alert color="orange" title="This cannot be undone here">
            {contactChoiceLabel(other)} will be deleted after everything of theirs moves to {fullName(contact)}.
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={!other}
            loading={merge.isPending}
            onClick={() => other && merge.mutate({ id: contact.id, otherId: other.id })}
          >
            Merge contacts
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
