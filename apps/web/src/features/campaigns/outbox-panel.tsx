import { Paper, Table, Text, Title, type PaperProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useChurchTimeZone } from '../../lib/time-zone';
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
      <Table highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>To</Table.Th>
            <Table.Th>{messageHeader}</Table.Th>
            <Table.Th>Time</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {messages.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.toAddress}</Table.Td>
              <Table.Td>{message(m)}</Table.Td>
              <Table.Td>
                {formatDate(m.createdAt, timeZone)} {formatTime(m.createdAt, timeZone)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
