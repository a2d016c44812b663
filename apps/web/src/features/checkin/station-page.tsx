import { Alert, Button, Center, Group, Loader, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { trpc } from '../../lib/trpc';
import { httpStatus } from '../../lib/errors';
import { useSession } from '../../shell/session';
import { StationCheckin } from './station-checkin';
import { RoomRoster } from './station-room';
import { StationFrame } from './station-frame';

/** The pairing screen: the code staff got in Settings → Check-in; the server sets the station's cookie. */
function PairStation({ onPaired }: { onPaired: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return setError('Pairing code is required');
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/api/check-in/pair', {
        method: 'POST',
        credentials: 'include',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        setError(body.message ?? 'That pairing code is not right');
        return;
      }
      onPaired();
    } finally {
      setBusy(false);
    }
  };
  return (
    <StationFrame title="Pair this station" sub="Staff: Settings → Check-in → Stations gives the code.">
      <Paper withBorder p="lg">
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack>
            <TextInput
              label="Pairing code"
              size="xl"
              autoComplete="off"
              autoCapitalize="characters"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              error={error}
            />
            <Button type="submit" size="xl" loading={busy}>
              Pair station
            </Button>
          </Stack>
        </form>
      </Paper>
    </StationFrame>
  );
}

/** Staff signed in on this browser: any room's roster, with pickup by override. */
function StaffRooms() {
  const rooms = trpc.checkin.setup.listRooms.useQuery();
  const [roomId, setRoomId] = useState<string | null>(null);
  return (
    <StationFrame title="Rooms" sub="Signed in as staff: pick a room to see its roster." wide>
      <Select
        label="Room"
        size="lg"
        maw={400}
        mb="md"
        data={(rooms.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
        value={roomId}
        onChange={setRoomId}
      />
      {roomId ? <RoomRoster roomId={Number(roomId)} staff /> : null}
    </StationFrame>
  );
}

/**
 * /station: a paired station's browser, without a staff login. Not paired yet: the pairing
 * screen. Paired: a self or manned station finds families and checks them in; a room station
 * shows its room's roster and picks children up with the code.
 */
export function StationPage() {
  const session = useSession();
  const utils = trpc.useUtils();
  const station = trpc.checkin.station.useQuery(undefined, {
    retry: false,
    enabled: !session.isLoading && !session.user,
  });
  if (session.isLoading || (!session.user && station.isLoading))
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (session.user) return <StaffRooms />;
  if (station.error) {
    const status = httpStatus(station.error);
    if (status === 401 || status === 403)
      return <PairStation onPaired={() => void utils.checkin.station.invalidate()} />;
    return (
      <StationFrame title="Check-in">
        <Alert color="red" title="The station could not load">
          {station.error.message}
          <Group mt="sm">
            <Button onClick={() => void station.refetch()}>Retry</Button>
          </Group>
        </Alert>
      </StationFrame>
    );
  }
  const s = station.data!;
  if (s.kind === 'room')
    return (
      <StationFrame title={s.name} sub={`${s.churchName} · room station`} wide>
        {s.roomId ? <RoomRoster roomId={s.roomId} staff={false} /> : <Text>This station has no room.</Text>}
      </StationFrame>
    );
  return <StationCheckin station={s} />;
}
