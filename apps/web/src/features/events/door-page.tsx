import {
  Alert,
  Button,
  Card,
  FileButton,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCamera, IconPhoto, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { errorMessage } from '../../lib/errors';
import { useSave } from '../../lib/use-save';
import { useChurchTimeZone } from '../../lib/time-zone';
import { formatNumber, formatTime } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { BackLink, EventNotFound } from './loading';
import { CameraScanner } from '../../ui/camera-scanner';
import type { EventDetail } from './event-words';
import { readQrFile } from '../../ui/qr-decode';
import { WalkInDialog } from './walk-in-dialog';

type Result = { ok: boolean; title: string; text: string };

/** The door, made for a phone: scan a ticket (camera or a picture) or find a name, and check people in. */
export function DoorPage() {
  const id = Number(useParams().id);
  const event = trpc.calendar.get.useQuery({ id }, { enabled: Number.isInteger(id) && id > 0 });
  if (event.isLoading)
    return (
      <Stack maw={560}>
        <Skeleton h={40} />
        <Skeleton h={200} />
      </Stack>
    );
  if (!event.data) return <EventNotFound />;
  return <Door event={event.data} />;
}

function Door({ event }: { event: EventDetail }) {
  const zone = useChurchTimeZone();
  const utils = trpc.useUtils();
  const [scanning, setScanning] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const [busy, setBusy] = useState(false);
  const [walkIn, setWalkIn] = useState(false);
  const [typed, setTyped] = useState('');
  const [search] = useDebouncedValue(typed, 250);
  const found = trpc.calendar.registrations.useQuery(
    { id: event.id, search, status: 'confirmed', pageSize: 20 },
    { enabled: search.trim().length > 0 },
  );
  // Why a ticket is refused shows in the result banner ('Already checked in at 18:42'), not as a toast.
  const checkIn = useSave(trpc.registrations.checkIn, { errorTitle: 'Not checked in', answer: () => true });
  // The file input is emptied after each picture, so the same picture may be chosen again.
  const resetFile = useRef<() => void>(null);

  const arrive = async (registrationId: number, attendeeIds: number[]) => {
    const r = await checkIn.mutateAsync({ id: registrationId, attendeeIds });
    void utils.calendar.registrations.invalidate();
    return r.checkedIn.map((a) => a.name).join(', ');
  };
  const fail = (title: string, err: unknown) => setResult({ ok: false, title, text: errorMessage(err) });

  /** A scanned ticket: who it is, then checked in (or why not). */
  const scanned = async (text: string) => {
    setBusy(true);
    try {
      const t = await utils.calendar.ticket.fetch({ id: event.id, ticket: text });
      if (t.status !== 'confirmed')
        return setResult({ ok: false, title: t.attendee.name, text: 'This registration is not confirmed.' });
      const names = await arrive(t.registrationId, [t.attendee.id]);
      setResult({ ok: true, title: 'Checked in', text: `${names} (${t.attendee.ticketTypeName})` });
    } catch (err) {
      fail('Not checked in', err);
    } finally {
      setBusy(false);
    }
  };
  const picture = async (file: File | null) => {
    if (!file) return;
    resetFile.current?.();
    const text = await readQrFile(file).catch(() => null);
    if (!text) return setResult({ ok: false, title: 'No QR code found', text: 'Try a sharper picture of the ticket.' });
    await scanned(text);
  };
  const tap = async (registrationId: number, attendee: { id: number; name: string }) => {
    try {
      const names = await arrive(registrationId, [attendee.id]);
      setResult({ ok: true, title: 'Checked in', text: names });
    } catch (err) {
      fail(attendee.name, err);
    }
  };

  const seats = event.times.reduce((n, t) => n + t.seatsTaken, 0);
  return (
    <Stack maw={560} gap="md">
      <BackLink to={`/events/${event.id}`}>Back to the event</BackLink>
      <PageHeader
        title={`Door: ${event.title}`}
        description={`${formatNumber(seats)} ${seats === 1 ? 'seat' : 'seats'} taken. Scan each ticket or find a name.`}
      />
      <div aria-live="polite">
        {result ? (
          <Alert color={result.ok ? 'teal.9' : 'red.9'} title={result.title} variant="filled">
            {result.text}
          </Alert>
        ) : null}
      </div>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Button
          size="lg"
          leftSection={<IconCamera size={20} />}
          variant={scanning ? 'light' : 'filled'}
          onClick={() => setScanning((s) => !s)}
        >
          {scanning ? 'Stop camera' : 'Scan tickets'}
        </Button>
        <FileButton resetRef={resetFile} onChange={(f) => void picture(f)} accept="image/*">
          {(props) => (
            <Button size="lg" variant="default" leftSection={<IconPhoto size={20} />} loading={busy} {...props}>
              Picture of a ticket
            </Button>
          )}
        </FileButton>
      </SimpleGrid>
      {scanning ? (
        <CameraScanner
          onRead={(t) => void scanned(t)}
          label="Camera: hold a ticket's QR code in view"
          otherWay="choose a picture of the ticket"
        />
      ) : null}
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Title order={2} size="h4">
            Find by name
          </Title>
          <TextInput
            label="Name or email"
            leftSection={<IconSearch size={16} />}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
          />
          {search && found.data?.registrations.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nobody registered by that name.
            </Text>
          ) : null}
          {found.data?.registrations.flatMap((r) =>
            r.attendees.map((a) => (
              <Group key={a.id} justify="space-between" wrap="nowrap">
                <div>
                  <Text fw={600}>{a.name}</Text>
                  <Text size="xs" c="dimmed">
                    {a.ticketTypeName}
                    {a.name !== r.name ? ` · with ${r.name}` : ''}
                  </Text>
                </div>
                {a.checkedInAt ? (
                  <Text size="sm" c="dimmed">
                    In at {formatTime(a.checkedInAt, zone)}
                  </Text>
                ) : (
                  <Button size="sm" onClick={() => void tap(r.id, a)} aria-label={`Check in ${a.name}`}>
                    Check in
                  </Button>
                )}
              </Group>
            )),
          )}
        </Stack>
      </Card>
      <Button variant="light" size="md" leftSection={<IconUserPlus size={18} />} onClick={() => setWalkIn(true)}>
        Add a walk-in
      </Button>
      {walkIn ? <WalkInDialog event={event} zone={zone} onClose={() => setWalkIn(false)} /> : null}
    </Stack>
  );
}
