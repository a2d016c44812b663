import { Button, Modal, SegmentedControl, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconMail } from '@tabler/icons-react';
import { useState } from 'react';
import type { z } from 'zod';
import { groupMessageSchema } from '@lampstand/api/schemas/groups-people';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatNumber } from '../../ui/format';
import type { GroupDetail } from './group-form';

type Values = z.input<typeof groupMessageSchema>;

/** 'Message the group': an email or a text to its current members, as the church, through the contact rule. */
function MessageModal({ group, onClose }: { group: GroupDetail; onClose: () => void }) {
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { id: group.id, channel: 'email', subject: '', body: '' },
    validate: schemaResolver(groupMessageSchema, { sync: true }),
  });
  const send = useSave(trpc.groups.sendMessage, {
    success: (r) => [
      'Message on its way',
      `${formatNumber(r.queued)} ${r.queued === 1 ? 'member' : 'members'}${
        r.withoutAddress.length ? `; no address: ${r.withoutAddress.join(', ')}` : ''
      }. Anyone who has not agreed to messages on this channel is left out.`,
    ],
    errorTitle: 'Failed to send the message',
    form,
    fieldErrorsOnly: true,
    onSuccess: onClose,
  });
  const email = form.values.channel === 'email';
  return (
    <Modal opened onClose={onClose} title={`Message ${group.name}`}>
      <form onSubmit={form.onSubmit((v) => send.mutate(groupMessageSchema.parse(v)))}>
        <Stack>
          <Text size="sm" c="dimmed">
            To the group’s {formatNumber(group.memberCount)} members, from the church. A reply to a text reaches
            Conversations.
          </Text>
          <SegmentedControl
            aria-label="Send by"
            data={[
              { value: 'email', label: 'Email' },
              { value: 'sms', label: 'Text' },
            ]}
            {...form.getInputProps('channel')}
          />
          {email ? <TextInput label="Subject" withAsterisk {...form.getInputProps('subject')} /> : null}
          <Textarea label="Message" withAsterisk autosize minRows={4} {...form.getInputProps('body')} />
          <Button type="submit" loading={send.isPending}>
            Send
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function MessageGroupButton({ group }: { group: GroupDetail }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconMail size={18} />} onClick={() => setOpen(true)}>
        Message the group
      </Button>
      {open ? <MessageModal group={group} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
