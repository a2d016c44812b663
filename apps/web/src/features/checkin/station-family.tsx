import { Alert, Badge, Button, Checkbox, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { fieldIssues, useSave } from '../../lib/use-save';
import { clientId, enqueue, isNetworkFailure, takeCode, type Bundle, type StationFamily } from './station-offline';

/** What the server refused, and the override that accepts it: too old/young for a room, or a full room. */
type Refusal = { message: string; ageChildIds: number[]; capacity: boolean };

export type CheckedInTags = { name: string; room: string; care: string | null }[];

/**
 * One family's check-in: its children with their rooms chosen, checked in with one tap; the
 * too-old/too-young and capacity answers with 'Check in anyway'. Without the network (or for a
 * family added offline) the check-in takes a code from this station's block and waits in the queue.
 */
export function FamilyCheckin({
  family,
  serviceId,
  rooms,
  bundle,
  onQueued,
  onDone,
  onBack,
}: {
  family: StationFamily;
  serviceId: number | null;
  rooms: { id: number; name: string }[];
  bundle: Bundle | undefined;
  onQueued: () => void;
  onDone: (code: string, children: CheckedInTags, offline: boolean) => void;
  onBack: () => void;
}) {
  const waiting = family.children.filter((c) => !c.checkedIn);
  const [chosen, setChosen] = useState<Record<number, boolean>>(Object.fromEntries(waiting.map((c) => [c.id, true])));
  const [roomOf, setRoomOf] = useState<Record<number, string | null>>(
    Object.fromEntries(family.children.map((c) => [c.id, c.roomId ? String(c.roomId) : null])),
  );
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [accepted, setAccepted] = useState<{ age: number[]; capacity: boolean }>({ age: [], capacity: false });
  // 'always': without the network the call fails at once (the station then works offline), not paused.
  // The refusal (or the offline queue) is answered below, beside the button: no toast.
  const checkIn = useSave(trpc.checkin.checkIn, {
    errorTitle: 'Not checked in',
    answer: () => true,
    networkMode: 'always',
  });
  const picked = waiting.filter((c) => chosen[c.id]);
  const missingRoom = picked.filter((c) => !roomOf[c.id]);
  const tagsOf = () =>
    picked.map((c) => ({
      name: c.name,
      room: rooms.find((r) => String(r.id) === roomOf[c.id])?.name ?? '',
      care: c.allergies ?? null,
    }));

  /** No network: a code from this station's block; the check-in is sent when the network returns. */
  const queue = async (accept: { age: number[] }) => {
    const code = bundle ? await takeCode(bundle) : null;
    if (!code) {
      setRefusal({
        message: 'No network, and this station has no offline codes left.',
        ageChildIds: [],
        capacity: false,
      });
      return;
    }
    await enqueue({
      kind: 'check_in',
      clientId: clientId(),
      at: new Date().toISOString(),
      ...(family.clientId ? { familyClientId: family.clientId } : { familyId: family.id }),
      serviceId,
      securityCode: code,
      children: picked.map((c) => ({
        ...(c.clientId ? { childClientId: c.clientId } : { childId: c.id }),
        roomId: Number(roomOf[c.id]),
        ageOverride: accept.age.includes(c.id),
        clientId: clientId(),
      })),
    });
    onQueued();
    onDone(code, tagsOf(), true);
  };

  const submit = async (accept: { age: number[]; capacity: boolean }) => {
    setRefusal(null);
    // A family added offline is not on the server yet: its check-in waits in the queue behind it.
    if (family.clientId) return queue(accept);
    try {
      const out = await checkIn.mutateAsync({
        familyId: family.id,
        serviceId,
        confirmOverCapacity: accept.capacity,
        children: picked.map((c) => ({
          childId: c.id,
          roomId: Number(roomOf[c.id]),
          ageOverride: accept.age.includes(c.id),
        })),
      });
      onDone(out.securityCode, tagsOf(), false);
    } catch (err) {
      if (isNetworkFailure(err)) return queue(accept);
      const issues = fieldIssues(err);
      const age = issues
        .map((i) => /^children\.(\d+)\.roomId$/.exec(i.path))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => picked[Number(m[1])]!.id);
      const capacity = issues.some((i) => i.path === 'confirmOverCapacity');
      setAccepted(accept);
      setRefusal({ message: errorMessage(err), ageChildIds: age, capacity });
    }
  };
  return (
    <Paper withBorder p="lg">
      <Stack>
        <Text fw={700} size="xl">
          {family.name}
        </Text>
        {family.children.map((c) => (
          <Paper key={c.id} withBorder p="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Checkbox
                size="lg"
                label={c.name}
                checked={!!chosen[c.id]}
                disabled={c.checkedIn}
                onChange={(e) => setChosen({ ...chosen, [c.id]: e.currentTarget.checked })}
              />
              {c.checkedIn ? (
                <Badge color="green" variant="light">
                  Checked in
                </Badge>
              ) : (
                <NativeSelect
                  aria-label={`Room for ${c.name}`}
                  size="md"
                  w={200}
                  data={[
                    { value: '', label: 'Choose a room' },
                    ...rooms.map((r) => ({ value: String(r.id), label: r.name })),
                  ]}
                  value={roomOf[c.id] ?? ''}
                  onChange={(e) => setRoomOf({ ...roomOf, [c.id]: e.currentTarget.value || null })}
                />
              )}
            </Group>
            {c.allergies ? (
              <Text size="sm" c="red.8" mt={4}>
                <IconAlertTriangle size={14} aria-hidden /> Allergies: {c.allergies}
              </Text>
            ) : null}
          </Paper>
        ))}
        {refusal ? (
          <Alert color="yellow" title="Check before checking in" icon={<IconAlertTriangle size={18} />}>
            <Stack gap="xs">
              <Text size="sm">{refusal.message}</Text>
              {refusal.ageChildIds.length > 0 || refusal.capacity ? (
                <Button
                  color="yellow"
                  c="dark"
                  size="lg"
                  onClick={() =>
                    void submit({
                      age: [...accepted.age, ...refusal.ageChildIds],
                      capacity: accepted.capacity || refusal.capacity,
                    })
                  }
                >
                  Check in anyway
                </Button>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        {missingRoom.length > 0 ? (
          <Text size="sm" c="red.8">
            Choose a room for {missingRoom.map((c) => c.name).join(', ')}.
          </Text>
        ) : null}
        <Button
          size="xl"
          disabled={picked.length === 0 || missingRoom.length > 0}
          loading={checkIn.isPending}
          onClick={() => void submit({ age: [], capacity: false })}
        >
          {picked.length === 0
            ? 'Everyone is checked in'
            : `Check in ${picked.length === 1 ? picked[0]!.name : picked.length === 2 ? 'both' : `all ${picked.length}`}`}
        </Button>
        <Button variant="subtle" size="lg" onClick={onBack}>
          Back to search
        </Button>
      </Stack>
    </Paper>
  );
}
