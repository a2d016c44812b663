import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = {
  draft: 'gray',
  scheduled: 'blue',
  sending: 'orange',
  sent: 'green',
  failed: 'red',
  ready: 'teal',
};
const LABELS: Record<string, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  failed: 'Failed',
  ready: 'Ready to Send',
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light">
      {LABELS[status] ?? status}
    </Badge>
  );
}
