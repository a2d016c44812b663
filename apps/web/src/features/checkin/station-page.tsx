import { Alert, Button, Center, Group, Loader, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { lazy, Suspense, useEffect, useState, type ComponentProps, type FormEvent } from 'react';
import { trpc } from '../../lib/trpc';
import { httpStatus } from '../../lib/errors';
import { StationCheckin } from './station-checkin';
import { OfflineNotices, StationFrame } from './station-frame';
import { forgetStation, isNetworkFailure, loadStation, saveStation, type StationSelf } from './station-offline';
import { useStationOffline } from './station-sync';

// A room's roster (a room station's screen, staff's) loads after the station's entry: a self-service
// kiosk never needs it.
const LazyRoster = lazy(() => import('./station-room').then((m) => ({ default: m.RoomRoster })));
function RoomRoster(props: ComponentProps<typeof LazyRoster>) {
  return (
    <Suspense fallback={<Text c="dimmed">Loading the roster…</Text>}>
      <LazyRoster {...props} />
    </Suspense>
  );
}

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
  const [roomId, setRoomId] = useState('');
  return (
    <StationFrame title="Rooms" sub="Signed in as staff: pick a room to see its roster." wide>
      <NativeSelect
        label="Room"
        size="lg"
        maw={400}
        mb="md"
        data={[
          { value: '', label: 'Choose a room' },
          ...(rooms.data ?? []).map((r) => ({ value: String(r.id), label: r.name })),
        ]}
        value={roomId}
        onChange={(e) => setRoomId(e.currentTarget.value)}
      />
      {roomId ? <RoomRoster roomId={Number(roomId)} staff /> : null}
    </StationFrame>
  );
}

/** A room station: its room's roster and pickups, offline too. */
function RoomStation({ station }: { station: StationSelf }) {
  const offline = useStationOffline('room');
  return (
    <StationFrame title={station.name} sub={`${station.churchName} · room station`} wide>
      <OfflineNotices queue={offline.queue} refused={offline.refused} />
      {station.roomId ? (
        <RoomRoster roomId={station.roomId} staff={false} offline={offline} />
      ) : (
        <Text>This station has no room.</Text>
      )}
    </StationFrame>
  );
}

/**
 * The station's own settings: from the server, else (no network, e.g. a reload while offline) the
 * copy kept on the station. Unpaired (401/403): the kept copy and bundle are forgotten.
 */
function useStationSelf(enabled: boolean) {
  const station = trpc.checkin.station.useQuery(undefined, { retry: false, enabled, networkMode: 'always' });
  const [kept, setKept] = useState<StationSelf | null | undefined>(undefined);
  const status = httpStatus(station.error);
  const offline = !!station.error && isNetworkFailure(station.error);
  useEffect(() => {
    if (station.data) void saveStation(station.data);
    else if (status === 401 || status === 403) void forgetStation();
    else if (offline) void loadStation().then((s) => setKept(s ?? null));
  }, [station.data, status, offline]);
  return { station, kept, offline, unpaired: status === 401 || status === 403 };
}

/**
 * /station: a paired station's browser, without a staff login (its own entry, station-main.tsx).
 * Not paired yet: the pairing screen. Paired: a self or manned station finds families and checks
 * them in; a room station shows its room's roster and picks children up with the code.
 */
export function StationPage() {
  const utils = trpc.useUtils();
  // The session check: staff signed in here see every room. Without the network: nobody is.
  const me = trpc.auth.me.useQuery(undefined, { retry: false, retryOnMount: false, networkMode: 'always' });
  const user = me.error ? null : (me.data ?? null);
  const { station, kept, offline, unpaired } = useStationSelf(!me.isLoading && !user);
  const loading = me.isLoading || (!user && (station.isLoading || (offline && kept === undefined)));
  if (loading)
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  if (user) return <StaffRooms />;
  if (unpaired) return <PairStation onPaired={() => void utils.checkin.station.invalidate()} />;
  const s = station.data ?? kept;
  if (!s)
    return (
      <StationFrame title="Check-in">
        <Alert color="red" title="The station could not load">
          {offline
            ? 'No network, and this station has not kept its settings yet: it needs the network once.'
            : station.error?.message}
          <Group mt="sm">
            <Button onClick={() => void station.refetch()}>Retry</Button>
          </Group>
        </Alert>
      </StationFrame>
    );
  if (s.kind === 'room') return <RoomStation station={s} />;
  return <StationCheckin station={s} />;
}
