import { Paper, Table, Text, Title } from '@mantine/core';
import { trpc } from '../../lib/trpc';
import { useChurchTimeZone } from '../../lib/time-zone';
import { formatDate, formatTime } from '../../ui/format';

/** Texts kept in the local outbox when no SMS provider is configured. */
export function SmsOutbox() {
  const outbox = trpc.outbox.list.useQuery({ channel: 'sms', limit: 20 }, { refetchInterval: 3000 });
  const timeZone = useChurchTimeZone();
  if (!outbox.data || outbox.data.length === 0) return null;
  return (
    <Paper withBorder p="md" mt="lg">
      <Title order={4}>Outbox</Title>
      <Text size="sm" c="dimmed" mb="sm">
        No SMS provider is configured, so texts were kept here instead of being sent.
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>To</Table.Th>
            <Table.Th>Message</Table.Th>
            <Table.Th>Time</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {outbox.data.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.toAddress}</Table.Td>
              <Table.Td>{m.text}</Table.Td>
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
