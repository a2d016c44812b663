import { Alert, Badge, Button, Checkbox, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { useStationOffline } from './station-sync';
import { clientId, enqueue, isNetworkFailure, searchBundle, takeCode, type Bundle } from './station-offline';
import { IconAlertTriangle, IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { fieldIssues, useSave } from '../../lib/use-save';
import { serviceLabel } from './checkin-words';
import { CheckedIn, type StationSelf } from './station-labels';
import { NewFamily } from './station-new-family';
import { StationFrame } from './station-frame';

type Family = {
  id: number;
  name: string;
  phoneLast4: string | null;
  children: { id: number; name: string; allergies?: string | null; roomId?: number | null; checkedIn?: boolean }[];
};

/** What the server refused, and the override that accepts it: too old/young for a room, or a full room. */
type Refusal = { message: string; ageChildIds: number[]; capacity: boolean };

function FamilyCheckin({
  family,
  serviceId,
  rooms,
  bundle,
  onQueued,
  onDone,
  onBack,
}: {
  family: Family;
  serviceId: number | null;
  rooms: { id: number; name: string }[];
  bundle: Bundle | undefined;
  onQueued: () => void;
  onDone: (code: string, children: { name: string; room: string; care: string | null }[], offline: boolean) => void;
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

  const submit = async (accept: { age: number[]; capacity: boolean }) => {
    setRefusal(null);
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
      if (isNetworkFailure(err) && bundle) {
        // No network: a code from this station's block; the check-in is sent when the network returns.
        const code = await takeCode(bundle);
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
          familyId: family.id,
          serviceId,
          securityCode: code,
          children: picked.map((c) => ({
            childId: c.id,
            roomId: Number(roomOf[c.id]),
            ageOverride: accept.age.includes(c.id),
            clientId: clientId(),
          })),
        });
        onQueued();
        onDone(code, tagsOf(), true);
        return;
      }
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
                <Select
                  aria-label={`Room for ${c.name}`}
                  placeholder="Choose a room"
                  size="md"
                  w={200}
                  data={rooms.map((r) => ({ value: String(r.id), label: r.name }))}
                  value={roomOf[c.id] ?? null}
                  onChange={(v) => setRoomOf({ ...roomOf, [c.id]: v })}
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

/**
 * A self (parents) or manned (volunteer) station: find a family by the last four digits of a phone
 * or a name, check its children in with their rooms chosen, or add a first-time family; then the
 * family's code and labels.
 */
export function StationCheckin({ station }: { station: StationSelf }) {
  const offline = useStationOffline();
  const services = offline.bundle?.services ?? [];
  const rooms = offline.bundle?.rooms ?? [];
  const [serviceId, setServiceId] = useState<string | null>(null);
  const service = serviceId ?? (services[0] ? String(services[0].id) : null);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<{ phone?: string; name?: string } | null>(null);
  const [family, setFamily] = useState<Family | null>(null);
  const [adding, setAdding] = useState(false);
  const [done, setDone] = useState<{
    code: string;
    children: { name: string; room: string; care: string | null }[];
    offline: boolean;
  } | null>(null);
  const found = trpc.checkin.lookup.useQuery(
    { ...search, serviceId: service ? Number(service) : undefined },
    { enabled: search !== null, networkMode: 'always' },
  );
  // Without the network, families are found in the bundle kept on this station.
  const localFamilies =
    search && found.error && isNetworkFailure(found.error) && offline.bundle
      ? searchBundle(offline.bundle, search)
      : null;
  const families = localFamilies ?? found.data?.families;
  const reset = () => {
    setFamily(null);
    setAdding(false);
    setDone(null);
    setSearch(null);
    setQuery('');
  };
  const find = (e: FormEvent) => {
    e.preventDefault();
    const q = query.trim();
    if (!q) return;
    setSearch(/^\d{4}$/.test(q) ? { phone: q } : { name: q });
  };
  let body;
  if (done) body = <CheckedIn station={station} {...done} onNext={reset} />;
  else if (adding)
    body = (
      <NewFamily
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
        bundle={offline.bundle}
        onQueued={offline.refresh}
        onBack={() => setFamily(null)}
        onDone={(code, children, queued) => setDone({ code, children, offline: queued })}
      />
    );
  else
    body = (
      <Stack>
        {services.length > 1 ? (
          <Select
            label="Service"
            size="lg"
            allowDeselect={false}
            data={services.map((s) => ({
              value: String(s.id),
              label: serviceLabel({ ...s, weekday: new Date(`${station.today}T12:00:00Z`).getUTCDay() }),
            }))}
            value={service}
            onChange={setServiceId}
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
        {found.error && !localFamilies ? <Alert color="red">{found.error.message}</Alert> : null}
        {search && families?.length === 0 ? <Text>No family found. New here? Add your family below.</Text> : null}
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
  return (
    <StationFrame
      title={station.kind === 'self' ? 'Welcome! Check in' : 'Check-in'}
      sub={`${station.churchName} · ${station.name}`}
    >
      {offline.waiting > 0 ? (
        <Alert color="yellow" mb="md" title="Working offline">
          {offline.waiting === 1 ? '1 check-in is' : `${offline.waiting} check-ins are`} saved on this station and sent
          when the network returns.
        </Alert>
      ) : null}
      {offline.refused.length > 0 ? (
        <Alert color="red" mb="md" title="Some offline check-ins were refused">
          {offline.refused.join(' ')}
        </Alert>
      ) : null}
      {body}
    </StationFrame>
  );
}
