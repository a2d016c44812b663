import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { formatDateTime } from '../../ui/format';
import { notifySuccess } from '../../ui/notify';
import type { EventDetail } from './event-words';

/** A walk-in registered on the spot: confirmed when seats are free, nothing to pay, and checked in. */
export function WalkInDialog({ event, zone, onClose }: { event: EventDetail; zone: string; onClose: () => void }) {
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      name: '',
      email: '',
      ticketTypeId: String(event.ticketTypes[0]?.id ?? ''),
      timeId: String(event.times[0]?.id ?? ''),
    },
  });
  // A failed check-in shows as the walk-in's failure (add's toast), once.
  const checkIn = useSave(trpc.registrations.checkIn, { errorTitle: 'Failed to add the walk-in', answer: () => true });
  const add = useSave(trpc.calendar.addRegistration, {
    errorTitle: 'Failed to add the walk-in',
    form: {
      setFieldError: (path, message) =>
        form.setFieldError(
          path.replace(/^registrant\./, '').replace(/^attendees\.0\.ticketTypeId$/, 'ticketTypeId'),
          message,
        ),
    },
    invalidate: (u) => [u.calendar.registrations.invalidate(), u.calendar.get.invalidate()],
    // The notice once both are done: it says the walk-in is checked in.
    onSuccess: async (r, input) => {
      await checkIn.mutateAsync({ id: r.id });
      notifySuccess('Walk-in added', `${input.registrant.name} is registered and checked in.`);
      onClose();
    },
  });
  const submit = form.onSubmit((v) =>
    add.mutate({
      id: event.id,
      timeId: Number(v.timeId),
      registrant: { name: v.name, email: v.email },
      attendees: [{ name: v.name, ticketTypeId: Number(v.ticketTypeId), answers: [] }],
      answers: [],
    }),
  );
  return (
    <Modal opened onClose={onClose} title="Add a walk-in">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label="Name" required data-autofocus {...form.getInputProps('name')} />
          <TextInput label="Email" required type="email" {...form.getInputProps('email')} />
          <Select
            label="Ticket"
            allowDeselect={false}
            data={event.ticketTypes.map((t) => ({ value: String(t.id), label: t.name }))}
            {...form.getInputProps('ticketTypeId')}
          />
          {event.times.length > 1 ? (
            <Select
              label="Time"
              allowDeselect={false}
              data={event.times.map((t) => ({ value: String(t.id), label: formatDateTime(t.startsAt, zone) }))}
              {...form.getInputProps('timeId')}
            />
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={add.isPending || checkIn.isPending}>
              Add and check in
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
