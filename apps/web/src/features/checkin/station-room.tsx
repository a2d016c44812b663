import { Alert, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { normalCode, WRONG_CODE } from '@lampstand/api/shared/checkin-words';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { fieldIssue, useSave } from '../../lib/use-save';
import { notifySuccess } from '../../ui/notify';
import { formatTime } from '../../ui/format';
import {
  clientId,
  enqueue,
  isNetworkFailure,
  presentOffline,
  type Bundle,
  type OfflineAction,
} from './station-offline';

/** A child on the roster, from the server's roster or (offline) the station's bundle. */
type Child = {
  checkinId: number;
  name: string;
  familyName: string;
  securityCode: string;
  checkedInAt: string | Date;
  allergies: string | null;
  medicalNotes: string | null;
  adults: { name: string; relationship: string | null; authorised: boolean }[];
  custodyNote?: string | null;
};

/** A room station's offline side (its bundle and queue); staff signed in work online only. */
export type RoomOffline = { bundle: Bundle | undefined; queue: OfflineAction[]; refresh: () => void };

/**
 * Pickup: the code on the parent's tag; staff may pick up without it, saying why (logged). Without
 * the network a room station checks the code against the one it keeps and queues the pickup.
 */
function Checkout({
  child,
  staff,
  offline,
  onDone,
}: {
  child: Child;
  staff: boolean;
  offline: RoomOffline | undefined;
  onDone: () => void;
}) {
  const utils = trpc.useUtils();
  const [code, setCode] = useState('');
  const [override, setOverride] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<{ field: 'code' | 'reason'; message: string } | null>(null);
  // A wrong code or a missing reason shows under its input, not as a toast.
  const checkOut = useSave(trpc.checkin.checkOut, {
    errorTitle: 'Not picked up',
    answer: () => true,
    networkMode: offline ? 'always' : undefined,
  });
  const pickUpOffline = async () => {
    if (normalCode(code) !== child.securityCode) return setError({ field: 'code', message: WRONG_CODE });
    await enqueue({
      kind: 'check_out',
      clientId: clientId(),
      at: new Date().toISOString(),
      checkinId: child.checkinId,
      securityCode: code,
    });
    offline!.refresh();
    notifySuccess(`${child.name} picked up`, 'Saved on this station: sent when the network returns.');
    onDone();
  };
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
      if (offline && !override && isNetworkFailure(err)) return pickUpOffline();
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

/** One child's card: name, code, allergies and notes, who may (not) pick up, and the pickup button. */
function ChildCard({ c, onPick }: { c: Child; onPick: () => void }) {
  return (
    <Paper withBorder p="md" aria-label={c.name} component="section">
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
            <Text key={a.name} size="sm" c={a.authorised ? undefined : 'red.8'} fw={a.authorised ? undefined : 700}>
              {a.authorised ? 'May pick up' : 'NOT authorised'}: {a.name}
              {a.relationship ? ` (${a.relationship})` : ''}
            </Text>
          ))}
        </Stack>
      ) : null}
      <Button mt="sm" size="lg" fullWidth onClick={onPick}>
        Check out {c.name}
      </Button>
    </Paper>
  );
}

/**
 * A room's roster: the children present with their codes, notes and pickup adults; the headcount;
 * pickup. A room station without the network shows the children it keeps (its bundle), less those
 * it picked up since.
 */
export function RoomRoster({ roomId, staff, offline }: { roomId: number; staff: boolean; offline?: RoomOffline }) {
  const roster = trpc.checkin.roster.useQuery({ id: roomId }, { refetchInterval: 30_000, networkMode: 'always' });
  const [picking, setPicking] = useState<Child | null>(null);
  // Without the network, a station's roster is what it keeps (staff's has no offline side).
  const kept = roster.error && isNetworkFailure(roster.error) ? offline?.bundle : undefined;
  if (roster.error && !kept)
    return (
      <Alert color="red" title="The roster could not load">
        {roster.error.message}
      </Alert>
    );
  if (!roster.data && !kept) return <Text c="dimmed">Loading the roster…</Text>;
  let room: { name: string; capacity: number | null };
  let present: Child[];
  let gone: number | null;
  if (kept) {
    present = presentOffline(kept, offline?.queue ?? [])
      .filter((p) => p.roomId === roomId)
      .map((p) => ({ ...p, name: p.childName, medicalNotes: null }));
    room = {
      name:
        kept.present.find((p) => p.roomId === roomId)?.roomName ?? kept.rooms.find((r) => r.id === roomId)?.name ?? '',
      capacity: kept.rooms.find((r) => r.id === roomId)?.capacity ?? null,
    };
    gone = null;
  } else {
    const data = roster.data!;
    room = data.room;
    present = data.children.filter((c) => !c.checkedOutAt);
    gone = data.children.length - present.length;
  }
  return (
    <Stack>
      {kept ? (
        <Alert color="yellow" title="No network">
          The children this station knew of at {formatTime(kept.generatedAt)}; medical notes show when the network
          returns. Pickups are checked here and sent when it does.
        </Alert>
      ) : null}
      <Group gap="lg">
        <Text size="xl" fw={700}>
          {room.name}
        </Text>
        <Badge size="xl" variant="light" aria-label={`Headcount ${present.length}`}>
          Here: {present.length}
          {room.capacity ? ` of ${room.capacity}` : ''}
        </Badge>
        {gone !== null ? <Text c="dimmed">Picked up: {gone}</Text> : null}
      </Group>
      {present.length === 0 ? <Text c="dimmed">No children checked in yet.</Text> : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {present.map((c) => (
          <ChildCard key={c.checkinId} c={c} onPick={() => setPicking(c)} />
        ))}
      </SimpleGrid>
      <Modal
        opened={picking !== null}
        onClose={() => setPicking(null)}
        title={picking ? `Pick up ${picking.name}` : ''}
      >
        {picking ? <Checkout child={picking} staff={staff} offline={offline} onDone={() => setPicking(null)} /> : null}
      </Modal>
    </Stack>
  );
}
