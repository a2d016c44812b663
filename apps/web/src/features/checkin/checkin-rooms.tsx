import {
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { Room } from '@lampstand/api/schemas/checkin/setup';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { DeleteRowButton } from '../../ui/confirm';
import { formatDate } from '../../ui/format';
import { GRADE_OPTIONS, roomRange, serviceLabel } from './checkin-words';

interface RoomValues {
  name: string;
  by: 'age' | 'grade';
  ageFrom: string;
  ageTo: string;
  gradeMin: string | null;
  gradeMax: string | null;
  capacity: string;
  serviceIds: string[];
}

const blank: RoomValues = {
  name: '',
  by: 'age',
  ageFrom: '',
  ageTo: '',
  gradeMin: null,
  gradeMax: null,
  capacity: '',
  serviceIds: [],
};

function valuesOf(r: Room): RoomValues {
  const byGrade = r.gradeMin !== null || r.gradeMax !== null;
  return {
    name: r.name,
    by: byGrade ? 'grade' : 'age',
    ageFrom: r.ageMinMonths === null ? '' : String(Math.floor(r.ageMinMonths / 12)),
    ageTo: r.ageMaxMonths === null ? '' : String(Math.floor(r.ageMaxMonths / 12)),
    gradeMin: r.gradeMin === null ? null : String(r.gradeMin),
    gradeMax: r.gradeMax === null ? null : String(r.gradeMax),
    capacity: r.capacity === null ? '' : String(r.capacity),
    serviceIds: r.serviceIds.map(String),
  };
}

/** Ages are typed in years: 'to 2' keeps a child until the day before they turn 3. */
function toInput(v: RoomValues) {
  const years = (s: string, end: boolean) => (s.trim() === '' ? null : Number(s) * 12 + (end ? 11 : 0));
  return {
    name: v.name,
    ageMinMonths: v.by === 'age' ? years(v.ageFrom, false) : null,
    ageMaxMonths: v.by === 'age' ? years(v.ageTo, true) : null,
    gradeMin: v.by === 'grade' && v.gradeMin !== null ? Number(v.gradeMin) : null,
    gradeMax: v.by === 'grade' && v.gradeMax !== null ? Number(v.gradeMax) : null,
    capacity: v.capacity.trim() === '' ? null : Number(v.capacity),
    serviceIds: v.serviceIds.map(Number),
  };
}

function RoomForm({ room, onDone }: { room: Room | null; onDone: () => void }) {
  const services = trpc.checkin.setup.listServices.useQuery();
  const form = useForm<RoomValues>({ mode: 'controlled', initialValues: room ? valuesOf(room) : blank });
  const opts = {
    success: room ? 'Room saved' : 'Room added',
    errorTitle: 'Failed to save room',
    form,
    invalidate: (u: ReturnType<typeof trpc.useUtils>) => u.checkin.setup.listRooms.invalidate(),
    onSuccess: onDone,
  };
  const create = useSave(trpc.checkin.setup.createRoom, opts);
  const update = useSave(trpc.checkin.setup.updateRoom, opts);
  const by = form.getValues().by;
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) =>
        room ? update.mutate({ ...toInput(v), id: room.id }) : create.mutate(toInput(v)),
      )}
    >
      <Stack>
        <TextInput label="Room name" placeholder="Nursery" {...form.getInputProps('name')} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="room-by">
            Children placed by
          </Text>
          <SegmentedControl
            aria-labelledby="room-by"
            data={[
              { value: 'age', label: 'Age' },
              { value: 'grade', label: 'School grade' },
            ]}
            {...form.getInputProps('by')}
          />
        </Stack>
        {by === 'age' ? (
          <Group grow align="flex-start">
            <TextInput
              label="From age (years)"
              inputMode="numeric"
              {...form.getInputProps('ageFrom')}
              error={form.errors.ageMinMonths}
            />
            <TextInput
              label="To age (years)"
              inputMode="numeric"
              {...form.getInputProps('ageTo')}
              error={form.errors.ageMaxMonths}
            />
          </Group>
        ) : (
          <Group grow align="flex-start">
            <Select label="Lowest grade" data={GRADE_OPTIONS} {...form.getInputProps('gradeMin')} />
            <Select label="Highest grade" data={GRADE_OPTIONS} {...form.getInputProps('gradeMax')} />
          </Group>
        )}
        <TextInput
          label="Capacity"
          description="Leave empty for no limit"
          inputMode="numeric"
          {...form.getInputProps('capacity')}
        />
        <MultiSelect
          label="Services"
          description="None chosen: the room meets at every service"
          data={(services.data ?? []).map((s) => ({ value: String(s.id), label: serviceLabel(s) }))}
          {...form.getInputProps('serviceIds')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending}>
            {room ? 'Save room' : 'Add room'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function CloseRoom({ room, onDone }: { room: Room; onDone: () => void }) {
  const [date, setDate] = useState('');
  const close = useSave(trpc.checkin.setup.closeRoom, {
    success: (_o, i) => (i.closed ? `${room.name} closed on ${formatDate(i.date)}` : `${room.name} open again`),
    errorTitle: 'Failed to change the room',
    invalidate: (u) => u.checkin.setup.listRooms.invalidate(),
    onSuccess: onDone,
  });
  return (
    <Stack>
      <TextInput label="Date" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} />
      {room.closedOn.length > 0 ? (
        <Stack gap={4}>
          <Text size="sm">Closed on:</Text>
          {room.closedOn.map((d) => (
            <Group key={d} justify="space-between">
              <Text size="sm">{formatDate(d)}</Text>
              <Button size="xs" variant="subtle" onClick={() => close.mutate({ id: room.id, date: d, closed: false })}>
                Open again on {formatDate(d)}
              </Button>
            </Group>
          ))}
        </Stack>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button
          disabled={!date}
          loading={close.isPending}
          onClick={() => close.mutate({ id: room.id, date, closed: true })}
        >
          Close room that day
        </Button>
      </Group>
    </Stack>
  );
}

/** Settings → Check-in → Rooms and classes: by age or grade, capacity, services, closed days. */
export function CheckinRooms() {
  const rooms = trpc.checkin.setup.listRooms.useQuery();
  const [editing, setEditing] = useState<Room | 'new' | null>(null);
  const [closing, setClosing] = useState<Room | null>(null);
  const remove = useSave(trpc.checkin.setup.deleteRoom, {
    success: 'Room deleted',
    errorTitle: 'Failed to delete room',
    invalidate: (u) => u.checkin.setup.listRooms.invalidate(),
  });
  return (
    <Paper withBorder p="lg" maw={720} mt="lg">
      <Group justify="space-between" mb={4}>
        <Title order={2} size="h4">
          Rooms and classes
        </Title>
        <Button onClick={() => setEditing('new')}>Add room</Button>
      </Group>
      <Text size="sm" c="dimmed" mb="md">
        Each child is placed in the open room whose ages or grades fit, the narrowest first.
      </Text>
      <Stack gap="sm">
        {rooms.data?.length === 0 ? (
          <Text size="sm" c="dimmed">
            No rooms yet.
          </Text>
        ) : null}
        {rooms.data?.map((r) => (
          <Paper key={r.id} withBorder p="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text fw={600}>{r.name}</Text>
                <Text size="sm" c="dimmed">
                  {roomRange(r)} · {r.capacity === null ? 'No limit' : `Capacity ${r.capacity}`}
                </Text>
                {r.closedOn.length > 0 ? (
                  <Group gap={4}>
                    {r.closedOn.map((d) => (
                      <Badge key={d} color="gray" variant="light">
                        Closed {formatDate(d)}
                      </Badge>
                    ))}
                  </Group>
                ) : null}
              </Stack>
              <Group gap="xs">
                <Button size="xs" variant="default" aria-label={`Edit ${r.name}`} onClick={() => setEditing(r)}>
                  Edit
                </Button>
                <Button
                  size="xs"
                  variant="default"
                  aria-label={`Close for a date: ${r.name}`}
                  onClick={() => setClosing(r)}
                >
                  Close for a date
                </Button>
                <DeleteRowButton
                  name={r.name}
                  text="A room that has had check-ins is kept for its history: close it instead."
                  confirm="Delete room"
                  onConfirm={() => remove.mutate({ id: r.id })}
                />
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'Add room' : 'Edit room'}
      >
        {editing !== null ? (
          <RoomForm room={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
        ) : null}
      </Modal>
      <Modal
        opened={closing !== null}
        onClose={() => setClosing(null)}
        title={closing ? `Close ${closing.name} for a date` : ''}
      >
        {closing ? <CloseRoom room={closing} onDone={() => setClosing(null)} /> : null}
      </Modal>
    </Paper>
  );
}
