import { Paper, Text, Title, type PaperProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useChurchTimeZone } from '../../lib/time-zone';
import { DataTable } from '../../ui/data-table';
import { formatDate, formatTime } from '../../ui/format';

/**
 * Messages kept in the local outbox when no provider is configured (email and SMS): recipient,
 * the message (its column named by the channel) and the time in the church's time zone.
 */
export function OutboxPanel<M extends { id: number; toAddress: string; createdAt: string }>({
  description,
  messages,
  messageHeader,
  message,
  ...paper
}: {
  description: ReactNode;
  messages: M[];
  messageHeader: string;
  message: (m: M) => ReactNode;
} & PaperProps) {
  const timeZone = useChurchTimeZone();
  return (
    <Paper withBorder p="md" {...paper}>
      <Title order={4} mb={4}>
        Outbox
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {description}
      </Text>
      <DataTable
        label="Outbox"
        rows={messages}
        rowKey={(m) => m.id}
        table={{ verticalSpacing: undefined }}
        columns={[
          { header: 'To', card: 'title', cell: (m) => m.toAddress },
          { header: messageHeader, cell: message },
          {
            header: 'Time',
            cell: (m) => `${formatDate(m.createdAt, timeZone)} ${formatTime(m.createdAt, timeZone)}`,
          },
        ]}
      />
    </Paper>
  );
}
