import { Alert, Button, Checkbox, Group, Modal, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { messageRegistrantsSchema } from '@lampstand/api/schemas/calendar-registrations';
import { smsSegments } from '@lampstand/api/shared/sms';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmAction } from '../../ui/confirm';
import { formatNumber } from '../../ui/format';
import type { EventDetail } from './event-words';

interface Values {
  id: number;
  channels: ('email' | 'sms')[];
  subject: string;
  body: string;
  status: 'active' | 'confirmed' | 'waitlisted';
}
const validate = schemaResolver(messageRegistrantsSchema, { sync: true });

/** Message the event's registrants by email and/or text, after saying how many it reaches. */
export function MessageDialog({ event, onClose }: { event: EventDetail; onClose: () => void }) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { id: event.id, channels: ['email'], subject: `About ${event.title}`, body: '', status: 'active' },
    validate,
  });
  const send = useSave(trpc.calendar.messageRegistrants, {
    success: (r) => [
      'Message sent',
      `${formatNumber(r.emails)} ${r.emails === 1 ? 'email' : 'emails'} and ${formatNumber(r.texts)} ${r.texts === 1 ? 'text' : 'texts'} are on their way.`,
    ],
    errorTitle: 'Failed to send the message',
    form,
    onSuccess: onClose,
  });
  const c = event.counts;
  const counts = {
    active: c.confirmed + c.held + c.offered + c.pending_approval + c.waitlisted,
    confirmed: c.confirmed,
    waitlisted: c.waitlisted,
  };
  const v = form.values;
  const texts = v.channels.includes('sms') ? smsSegments(v.body).segments : 0;
  const submit = form.onSubmit((values) => {
    const n = counts[values.status];
    confirmAction({
      title: `Send to ${formatNumber(n)} ${n === 1 ? 'registrant' : 'registrants'}?`,
      text: `By ${values.channels.map((x) => (x === 'email' ? 'email' : 'text')).join(' and ')}, to ${event.title}'s ${
        values.status === 'active' ? 'registrants' : `${values.status} registrants`
      }. It cannot be taken back.`,
      confirm: 'Send',
      onConfirm: () =>
        send.mutate({ ...values, subject: values.channels.includes('email') ? values.subject : undefined }),
    });
  });

  return (
    <Modal opened onClose={onClose} title="Message registrants" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Alert variant="light" color="indigo">
            For news about this event: a new room, what to bring, a changed time. It reaches people registered even if
            they unsubscribed from your newsletters, so keep invitations to other things for campaigns.
          </Alert>
          <Checkbox.Group label="Send by" required {...form.getInputProps('channels')}>
            <Group mt="xs">
              <Checkbox value="email" label="Email" />
              <Checkbox value="sms" label="Text (to registrants with a mobile number on their contact)" />
            </Group>
          </Checkbox.Group>
          <Select
            label="To"
            allowDeselect={false}
            data={[
              { value: 'active', label: `Everyone registered or waiting (${formatNumber(counts.active)})` },
              { value: 'confirmed', label: `Confirmed (${formatNumber(counts.confirmed)})` },
              { value: 'waitlisted', label: `On the waitlist (${formatNumber(counts.waitlisted)})` },
            ]}
            {...form.getInputProps('status')}
          />
          {v.channels.includes('email') ? (
            <TextInput label="Subject" required {...form.getInputProps('subject')} />
          ) : null}
          <Textarea
            label="Message"
            required
            autosize
            minRows={4}
            description={texts > 1 ? `As a text it counts as ${texts} texts per person` : undefined}
            {...form.getInputProps('body')}
          />
          <Text size="xs" c="dimmed">
            Texts start with your church’s name; sent between 9:00 PM and 8:00 AM (your church’s time), they wait until
            8:00 AM. Nobody who texted STOP or whose email bounced is reached.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending}>
              Send message
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
