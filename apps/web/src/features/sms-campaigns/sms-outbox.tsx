import { trpc } from '../../lib/trpc';
import { OutboxPanel } from '../campaigns/outbox-panel';

/** Texts kept in the local outbox when no SMS provider is configured. */
export function SmsOutbox() {
  const outbox = trpc.outbox.list.useQuery({ channel: 'sms', limit: 20 }, { refetchInterval: 3000 });
  if (!outbox.data || outbox.data.length === 0) return null;
  return (
    <OutboxPanel
      mt="lg"
      description="No SMS provider is configured, so texts were kept here instead of being sent."
      messages={outbox.data}
      messageHeader="Message"
      message={(m) => m.text}
    />
  );
}
