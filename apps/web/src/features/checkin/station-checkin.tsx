import { Alert, Button, Group, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { IconQrcode, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { trpc } from '../../lib/trpc';
import { useStationOffline } from './station-sync';
import { familyOfCard, isNetworkFailure, searchBundle, type StationFamily, type StationSelf } from './station-offline';
import { serviceLabel } from './checkin-words';
import { CheckedIn } from './station-labels';
import { FamilyCheckin, type CheckedInTags } from './station-family';
import { ScanCard } from './station-card';
import { OfflineNotices, StationFrame } from './station-frame';
import { reloadIfUpdated } from './station-update';

type Search = { phone?: string; name?: string; card?: string };

// Loaded when first needed (and kept by the station's service worker): the first-time family's
// form, and a manned station's pickup roster. The station's first load stays small.
const NewFamily = lazy(() => import('./station-new-family').then((m) => ({ default: m.NewFamily })));
const RoomRoster = lazy(() => import('./station-room').then((m) => ({ default: m.RoomRoster })));

/**
 * A self (parents) or manned (volunteer) station: find a family by the last four digits of a phone,
 * a name or its QR card, check its children in with their rooms chosen, or add a first-time
 * family; then the family's code and labels. Without the network all of it works from the bundle
 * kept on the station.
 */
export function StationCheckin({ station }: { station: StationSelf }) {
  const offline = useStationOffline('checkIn');
  const { bundle, queue } = offline;
  const services = bundle?.services ?? [];
  const rooms = bundle?.rooms ?? [];
  const [serviceId, setServiceId] = useState<string | null>(null);
  const service = serviceId ?? (services[0] ? String(services[0].id) : null);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<Search | null>(null);
  const [scanning, setScanning] = useState(false);
  const [family, setFamily] = useState<StationFamily | null>(null);
  const [adding, setAdding] = useState(false);
  const [done, setDone] = useState<{ code: string; children: CheckedInTags; offline: boolean } | null>(null);
  // A manned station (a volunteer) picks children up too: any room's roster.
  const [pickup, setPickup] = useState(false);
  const [pickupRoom, setPickupRoom] = useState('');
  const found = trpc.checkin.lookup.useQuery(
    { ...search, serviceId: service ? Number(service) : undefined },
    { enabled: search !== null, networkMode: 'always' },
  );
  // Without the network, families are found in the bundle kept on this station (a card by its
  // token's hash: worked out asynchronously).
  const noNetwork = search !== null && !!found.error && isNetworkFailure(found.error) && !!bundle;
  const [cardFamilies, setCardFamilies] = useState<{ card: string; families: StationFamily[] } | null>(null);
  useEffect(() => {
    const card = search?.card;
    if (!noNetwork || !card || !bundle) return;
    let current = true;
    void familyOfCard(bundle, queue, card).then((families) => {
      if (current) setCardFamilies({ card, families });
    });
    return () => {
      current = false;
    };
  }, [noNetwork, search, bundle, queue]);
  let families: StationFamily[] | undefined = found.data?.families;
  if (noNetwork && search && bundle)
    families = search.card
      ? cardFamilies?.card === search.card
        ? cardFamilies.families
        : undefined
      : searchBundle(bundle, queue, search);
  const reset = () => {
    setFamily(null);
    setAdding(false);
    setDone(null);
    setSearch(null);
    setQuery('');
    // A new version of the station, installed meanwhile, starts between two families.
    reloadIfUpdated();
  };
  const find = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (!q) return;
    setSearch(/^\d{4}$/.test(q) ? { phone: q } : { name: q });
  };
  let body;
  if (pickup)
    body = (
      <Stack>
        <NativeSelect
          label="Room"
          size="lg"
          data={[{ value: '', label: 'Choose a room' }, ...rooms.map((r) => ({ value: String(r.id), label: r.name }))]}
          value={pickupRoom}
          onChange={(e) => setPickupRoom(e.currentTarget.value)}
        />
        {pickupRoom ? <RoomRoster roomId={Number(pickupRoom)} staff={false} offline={offline} /> : null}
      </Stack>
    );
  else if (done) body = <CheckedIn station={station} {...done} onNext={reset} />;
  else if (adding)
    body = (
      <NewFamily
        bundle={bundle}
        onQueued={offline.refresh}
        onCancel={() => setAdding(false)}
        onAdded={(f) => {
          setAdding(false);
          setFamily(f);
        }}
      />
    );
  else if (family)
    body = (
      <FamilyCheckin
        family={family}
        serviceId={service ? Number(service) : null}
        rooms={rooms}
        bundle={bundle}
        onQueued={offline.refresh}
        onBack={() => setFamily(null)}
        onDone={(code, children, queued) => setDone({ code, children, offline: queued })}
      />
    );
  else
    body = (
      <Stack>
        {services.length > 1 ? (
          <NativeSelect
            label="Service"
            size="lg"
            data={services.map((s) => ({
              value: String(s.id),
              label: serviceLabel({ ...s, weekday: new Date(`${station.today}T12:00:00Z`).getUTCDay() }),
            }))}
            value={service ?? ''}
            onChange={(e) => setServiceId(e.currentTarget.value)}
          />
        ) : null}
        <form onSubmit={find} noValidate>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              size="xl"
              label="Last 4 digits of your phone, or your name"
              inputMode="search"
              autoComplete="off"
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
            />
            <Button type="submit" size="xl" aria-label="Find" px="md">
              <IconSearch size={26} aria-hidden />
            </Button>
          </Group>
        </form>
        {scanning ? (
          <ScanCard
            onClose={() => setScanning(false)}
            onCard={(card) => {
              setScanning(false);
              setSearch({ card });
            }}
          />
        ) : (
          <Button
            size="xl"
            variant="default"
            leftSection={<IconQrcode size={26} aria-hidden />}
            onClick={() => setScanning(true)}
          >
            Scan card
          </Button>
        )}
        {found.error && !noNetwork ? <Alert color="red">{found.error.message}</Alert> : null}
        {search && families?.length === 0 ? (
          <Text>
            {search.card ? 'That card is not known here.' : 'No family found.'} New here? Add your family below.
          </Text>
        ) : null}
        {families?.map((f) => (
          <Button
            key={f.id}
            size="xl"
            variant="default"
            h="auto"
            py="md"
            onClick={() => setFamily(f)}
            justify="space-between"
          >
            <Stack gap={0} align="flex-start">
              <Text fw={700} size="lg">
                {f.name}
              </Text>
              <Text size="sm" c="dimmed">
                {f.children.map((c) => c.name).join(', ') || 'No children yet'}
              </Text>
            </Stack>
          </Button>
        ))}
        <Button size="xl" variant="light" onClick={() => setAdding(true)}>
          New here? Add your family
        </Button>
      </Stack>
    );
  body = <Suspense fallback={<Text c="dimmed">Loading…</Text>}>{body}</Suspense>;
  return (
    <StationFrame
      title={station.kind === 'self' ? 'Welcome! Check in' : 'Check-in'}
      wide={pickup}
      sub={`${station.churchName} · ${station.name}`}
    >
      <OfflineNotices queue={queue} refused={offline.refused} />
      {station.kind === 'manned' ? (
        <Group grow mb="md">
          <Button
            size="lg"
            variant={pickup ? 'default' : 'filled'}
            aria-pressed={!pickup}
            onClick={() => setPickup(false)}
          >
            Check in
          </Button>
          <Button
            size="lg"
            variant={pickup ? 'filled' : 'default'}
            aria-pressed={pickup}
            onClick={() => setPickup(true)}
          >
            Pick up
          </Button>
        </Group>
      ) : null}
      {body}
    </StationFrame>
  );
}
