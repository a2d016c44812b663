import { Anchor, Paper } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../ui/page-header';
import { ContactDetails } from './contact-details';

/** /contacts/detail/{id} (?tab=children&action=add opens the child form). */
export function ContactDetailPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const contactId = Number(id);
  return (
    <>
      <Anchor
        component={Link}
        to="/contacts"
        size="sm"
        mb="sm"
        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
      >
        <IconArrowLeft size={14} /> Back to Contacts
      </Anchor>
      <PageHeader title="Contact Details" />
      <Paper withBorder p="lg" maw={900}>
        {Number.isInteger(contactId) && contactId > 0 ? (
          <ContactDetails key={contactId} contactId={contactId} initialTab={params.get('tab')} />
        ) : (
          'Contact not found'
        )}
      </Paper>
    </>
  );
}
