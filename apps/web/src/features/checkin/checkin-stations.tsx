import {
  Alert,
  Badge,
  Box,
  Button,
  Code,
  Group,
  Modal,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { STATION_KINDS } from '@lampstand/api/schemas/checkin/setup';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive, DeleteRowButton } from '../../ui/confirm';
import { formatDateTime } from '../../ui/format';
import { ForDeveloper } from '../../ui/for-developer';
import { KIND_LABELS } from './checkin-words';

type Kind = (typeof STATION_KINDS)[number];
interface StationValues {
  name: string;
  kind: Kind;
  roomId: string | null;
  printer: 'pdf' | 'bridge';
  printerBridgeUrl: string;
  printerBridgeSecret: string;
  labelSize: '2.25x1.25' | '4x2';
}
const blank: StationValues = {
  name: '',
  kind: 'self',
  roomId: null,
  printer: 'pdf',
  printerBridgeUrl: '',
  printerBridgeSecret: '',
  labelSize: '2.25x1.25',
};

function NewStation({ onCode }: { onCode: (c: { name: string; code: string; expiresAt: string }) => void }) {
  const rooms = trpc.checkin.setup.listRooms.useQuery();
  const form = useForm<StationValues>({ mode: 'controlled', initialValues: blank });
  const create = useSave(trpc.checkin.setup.createStation, {
    success: ['Station added', 'Enter its pairing code on the station within 15 minutes.'],
    errorTitle: 'Failed to add station',
    form,
    invalidate: (u) => u.checkin.setup.listStations.invalidate(),
    onSuccess: (o) => {
      onCode({ name: o.station.name, code: o.pairingCode, expiresAt: o.expiresAt });
      form.setValues(blank);
    },
  });
  const v = form.getValues();
  return (
    <form
      noValidate
      aria-label="Add a station"
      onSubmit={form.onSubmit((v) =>
        create.mutate({
          ...v,
          roomId: v.kind === 'room' && v.roomId ? Number(v.roomId) : null,
          printerBridgeUrl: v.printer === 'bridge' ? v.printerBridgeUrl.trim() || null : null,
          printerBridgeSecret: v.printer === 'bridge' ? v.printerBridgeSecret.trim() || null : null,
        }),
      )}
    >
      <Stack>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput label="Station name" placeholder="Lobby kiosk" {...form.getInputProps('name')} />
          <Select
            label="Kind"
            allowDeselect={false}

            data={STATION_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            {...form.getInputProps('kind')}
          />
        </SimpleGrid>
        {v.kind === 'room' ? (
          <Select
            label="Room"
            data={(rooms.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))}
            {...form.getInputProps('roomId')}
          />
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Select
            label="Labels"
            allowDeselect={false}

            data={[
              { value: 'pdf', label: 'Print a PDF (any printer)' },
              { value: 'bridge', label: 'Label printer through the print bridge' },
            ]}
            {...form.getInputProps('printer')}
          />
          <Select
            label="Label size"
            allowDeselect={false}

            data={[
              { value: '2.25x1.25', label: '2.25″ × 1.25″' },
              { value: '4x2', label: '4″ × 2″' },
            ]}
            {...form.getInputProps('labelSize')}
          />
        </SimpleGrid>
        {v.printer === 'bridge' ? (
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label="Print bridge address"
              placeholder="http://127.0.0.1:9180"

              {...form.getInputProps('printerBridgeUrl')}
            />
            <PasswordInput label="Print bridge secret" {...form.getInputProps('printerBridgeSecret')} />
          </SimpleGrid>
        ) : null}
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            Add station
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Settings → Check-in → Stations: a station is a browser paired once with a code (shown once, 15
 * minutes); it then runs check-in at /station without a staff login. Re-pair gives a new code (the
 * old browser stops at once); unpair stops it.
 */
export function CheckinStations() {
  const stations = trpc.checkin.setup.listStations.useQuery();
  const rooms = trpc.checkin.setup.listRooms.useQuery();
  const [code, setCode] = useState<{ name: string; code: string; expiresAt: string } | null>(null);
  const pair = useSave(trpc.checkin.setup.pairStation, {
    success: 'New pairing code',
    errorTitle: 'Failed to pair station',
    invalidate: (u) => u.checkin.setup.listStations.invalidate(),
    onSuccess: (o) => setCode({ name: o.station.name, code: o.pairingCode, expiresAt: o.expiresAt }),
  });
  const unpair = useSave(trpc.checkin.setup.unpairStation, {
    success: 'Station unpaired',
    errorTitle: 'Failed to unpair station',
    invalidate: (u) => u.checkin.setup.listStations.invalidate(),
  });
  const remove = useSave(trpc.checkin.setup.deleteStation, {
    success: 'Station deleted',
    errorTitle: 'Failed to delete station',
    invalidate: (u) => u.checkin.setup.listStations.invalidate(),
  });
  const roomName = (id: number | null) => rooms.data?.find((r) => r.id === id)?.name ?? '';
  const stationUrl = `${window.location.origin}/station`;
  return (
    <Paper withBorder p="lg" maw={720} mt="lg">
      <Title order={2} size="h4" mb={4}>
        Stations
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Open <Code style={{ overflowWrap: 'anywhere' }}>{stationUrl}</Code> on the tablet, laptop or phone and enter its
        pairing code.
      </Text>
      <Box mb="md">
        <ForDeveloper label="How to run the print bridge">
          A label printer (Zebra-compatible, on your network) is reached through the print bridge, run on a computer
          near it:{' '}
          <Code>
            PRINT_BRIDGE_SECRET=a-long-secret pnpm print-bridge --printer 192.168.1.50:9100 --port 9180 --host 127.0.0.1
          </Code>
          . Then set the station&apos;s labels to the print bridge, with its address (<Code>http://127.0.0.1:9180</Code>{' '}
          on the station&apos;s own computer) and the same secret. The full set-up is in docs/check-in.md (Labels and
          the print bridge) in Lampstand&apos;s repository.
        </ForDeveloper>
      </Box>
      <NewStation onCode={setCode} />
      <Modal opened={code !== null} onClose={() => setCode(null)} title={code ? `Pair ${code.name}` : ''}>
        {code ? (
          <Alert color="orange" icon={<IconKey size={18} />} title="Pairing code">
            <Stack gap="xs">
              <Text ff="monospace" fz={32} fw={700} data-testid="pairing-code" style={{ letterSpacing: 4 }}>
                {code.code}
              </Text>
              <Text size="sm">
                Enter it at <Code>{stationUrl}</Code> before {formatDateTime(code.expiresAt)}. It is shown only once.
              </Text>
            </Stack>
          </Alert>
        ) : null}
      </Modal>
      <Stack gap="sm" mt="lg">
        {stations.data?.length === 0 ? (
          <Text size="sm" c="dimmed">
            No stations yet.
          </Text>
        ) : null}
        {stations.data?.map((s) => (
          <Paper key={s.id} withBorder p="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Group gap="xs">
                  <Text fw={600}>{s.name}</Text>
                  <Badge color={s.paired ? 'green' : 'gray'} variant="light">
                    {s.paired ? 'Paired' : 'Not paired'}
                  </Badge>
                </Group>
                <Text size="sm" c="dimmed">
                  {KIND_LABELS[s.kind]}
                  {s.kind === 'room' ? ` · ${roomName(s.roomId)}` : ''} ·{' '}
                  {s.printer === 'bridge' ? `Print bridge ${s.printerBridgeUrl ?? ''}` : 'PDF labels'} · {s.labelSize}″
                </Text>
                {s.lastSeenAt ? (
                  <Text size="xs" c="dimmed">
                    Last seen {formatDateTime(s.lastSeenAt)}
                  </Text>
                ) : null}
              </Stack>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`${s.paired ? 'Re-pair' : 'Pairing code for'} ${s.name}`}
                  onClick={() => pair.mutate({ id: s.id })}
                >
                  {s.paired ? 'Re-pair' : 'Pairing code'}
                </Button>
                {s.paired ? (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Unpair ${s.name}`}
                    onClick={() =>
                      confirmDestructive({
                        title: `Unpair ${s.name}?`,
                        text: 'The station stops working at once, until it is paired again.',
                        confirm: 'Unpair',
                        onConfirm: () => unpair.mutate({ id: s.id }),
                      })
                    }
                  >
                    Unpair
                  </Button>
                ) : null}
                <DeleteRowButton
                  name={s.name}
                  text="The station stops working at once."
                  confirm="Delete station"
                  onConfirm={() => remove.mutate({ id: s.id })}
                />
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
