import { Alert, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { fieldIssue, useSave } from '../../lib/use-save';
import { notifySuccess } from '../../ui/notify';
import { formatTime } from '../../ui/format';

type Child = {
  checkinId: number;
  name: string;
  securityCode: string;
};

/** Pickup: the code on the parent's tag; staff may pick up without it, saying why (logged). */
function Checkout({ child, staff, onDone }: { child: Child; staff: boolean; onDone: () => void }) {
  const utils = trpc.useUtils();
  const [code, setCode] = useState('');
  const [override, setOverride] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ field: 'code' | 'reason'; message: string } | null>(null);
  // A wrong code or a missing reason shows under its input, not as a toast.
  const checkOut = useSave(trpc.checkin.checkOut, { errorTitle: 'Not picked up', answer: () => true });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await checkOut.mutateAsync(
        override ? { id: child.checkinId, override: true, reason } : { id: child.checkinId, securityCode: code },
      );
      notifySuccess(`${child.name} picked up`);
      await utils.checkin.roster.invalidate();
      onDone();
    } catch (err) {
      const reasonIssue = fieldIssue(err, 'reason');
      setError(reasonIssue ? { field: 'reason', message: reasonIssue } : { field: 'code', message: errorMessage(err) });
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack>
        {override ? (
          <Textarea
            label="Why is the child picked up without the code?"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={error?.field === 'reason' ? error.message : null}
            autosize
            minRows={2}
          />
        ) : (
          <TextInput
            label="Security code from the parent's tag"
            size="xl"
            autoComplete="off"
            autoCapitalize="characters"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={error?.field === 'code' ? error.message : null}
          />
        )}
        {override && error?.field === 'code' ? <Alert color="red">{error.message}</Alert> : null}
        <Button type="submit" size="lg" loading={checkOut.isPending}>
          Pick up {child.name}
        </Button>
        {staff ? (
          <Button variant="subtle" onClick={() => setOverride(!override)}>
            {override ? 'Use the security code' : 'Pick up without the code (staff)'}
          </Button>
        ) : null}
      </Stack>
    </form>
  );
}

/** A room's roster: the children present with their codes, notes and pickup adults; the headcount; pickup. */
export function RoomRoster({ roomId, staff }: { roomId: number; staff: boolean }) {
  const roster = trpc.checkin.roster.useQuery({ id: roomId }, { refetchInterval: 30_000 });
  const [picking, setPicking] = useState<Child | null>(null);
  if (roster.error)
    return (
      <Alert color="red" title="The roster could not load">
        {roster.error.message}
      </Alert>
    );
  if (!roster.data) return <Text c="dimmed">Loading the roster…</Text>;
  const { room, children } = roster.data;
  const present = children.filter((c) => !c.checkedOutAt);
  const gone = children.filter((c) => c.checkedOutAt);
  return (
    <Stack>
      <Group gap="lg">
        <Text size="xl" fw={700}>
          {room.name}
        </Text>
        <Badge size="xl" variant="light" aria-label={`Headcount ${present.length}`}>
          Here: {present.length}
          {room.capacity ? ` of ${room.capacity}` : ''}
        </Badge>
        <Text c="dimmed">Picked up: {gone.length}</Text>
      </Group>
      {present.length === 0 ? <Text c="dimmed">No children checked in yet.</Text> : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {present.map((c) => (
          <Paper key={c.checkinId} withBorder p="md" aria-label={c.name} component="section">
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={4}>
                <Text fw={700} size="lg">
                  {c.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {c.familyName} · in at {formatTime(c.checkedInAt)}
                </Text>
              </Stack>
              <Text ff="monospace" fw={700} fz={24} aria-label={`Code ${c.securityCode}`}>
                {c.securityCode}
              </Text>
            </Group>
            {c.allergies || c.medicalNotes ? (
              <Alert color="red" variant="light" mt="xs" icon={<IconAlertTriangle size={18} />} p="xs">
                {[c.allergies && `Allergies: ${c.allergies}`, c.medicalNotes].filter(Boolean).join(' · ')}
              </Alert>
            ) : null}
            {c.custodyNote ? (
              <Text size="sm" mt="xs" c="red.8">
                Custody (staff only): {c.custodyNote}
              </Text>
            ) : null}
            {c.adults.length > 0 ? (
              <Stack gap={2} mt="xs">
                {c.adults.map((a) => (
                  <Text
                    key={a.name}
                    size="sm"
                    c={a.authorised ? undefined : 'red.8'}
                    fw={a.authorised ? undefined : 700}
                  >
                    {a.authorised ? 'May pick up' : 'NOT authorised'}: {a.name}
                    {a.relationship ? ` (${a.relationship})` : ''}
                  </Text>
                ))}
              </Stack>
            ) : null}
            <Button mt="sm" size="lg" fullWidth onClick={() => setPicking(c)}>
              Check out {c.name}
            </Button>
          </Paper>
        ))}
      </SimpleGrid>
      <Modal
        opened={picking !== null}
        onClose={() => setPicking(null)}
        title={picking ? `Pick up ${picking.name}` : ''}
      >
        {picking ? <Checkout child={picking} staff={staff} onDone={() => setPicking(null)} /> : null}
      </Modal>
    </Stack>
  );
}
