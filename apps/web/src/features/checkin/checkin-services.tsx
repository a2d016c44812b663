import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { serviceInputSchema } from '@lampstand/api/schemas/checkin/setup';
import { WEEKDAYS } from '@lampstand/api/shared/checkin-words';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { serviceLabel } from './checkin-words';

const DAYS = WEEKDAYS.map((d, i) => ({ value: String(i), label: d }));

/** Settings → Check-in → Services: the times check-in runs (a room meets at some or all of them). */
export function CheckinServices() {
  const services = trpc.checkin.setup.listServices.useQuery();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', weekday: '0', startsAt: '09:00' },
    validate: schemaResolver(serviceInputSchema, { sync: true }),
  });
  const create = useSave(trpc.checkin.setup.createService, {
    success: 'Service added',
    errorTitle: 'Failed to add service',
    form,
    invalidate: (u) => u.checkin.setup.listServices.invalidate(),
    onSuccess: () => form.setValues({ name: '' }),
  });
  const remove = useSave(trpc.checkin.setup.deleteService, {
    success: 'Service deleted',
    errorTitle: 'Failed to delete service',
    invalidate: (u) => u.checkin.setup.listServices.invalidate(),
  });
  return (
    <Paper withBorder p="lg" maw={720} mt="lg">
      <Title order={2} size="h4" mb={4}>
        Services
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        The times check-in runs, in your church&apos;s time zone.
      </Text>
      <form
        noValidate
        onSubmit={form.onSubmit((v) => create.mutate({ ...v, weekday: Number(v.weekday) }))}
        aria-label="Add a service"
      >
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 4 }} verticalSpacing="xs">
          <TextInput
            label="Service name"
            placeholder="First service"
            style={{ flex: 1, minWidth: 180 }}
            {...form.getInputProps('name')}
          />
          <Select label="Day" data={DAYS} allowDeselect={false} {...form.getInputProps('weekday')} />
          <TextInput label="Starts at" type="time" {...form.getInputProps('startsAt')} />
          <Button type="submit" mt={{ base: 0, sm: 25 }} loading={create.isPending}>
            Add service
          </Button>
        </SimpleGrid>
      </form>
      <Stack gap="xs" mt="md">
        {services.data?.length === 0 ? (
          <Text size="sm" c="dimmed">
            No services yet: rooms then meet at any time.
          </Text>
        ) : null}
        {services.data?.map((s) => (
          <Group key={s.id} justify="space-between" wrap="nowrap">
            <Text size="sm">{serviceLabel(s)}</Text>
            <Button
              variant="subtle"
              color="red"
              size="xs"
              aria-label={`Delete ${s.name}`}
              onClick={() =>
                confirmDestructive({
                  title: `Delete ${s.name}?`,
                  text: 'Rooms stop listing this time.',
                  confirm: 'Delete service',
                  onConfirm: () => remove.mutate({ id: s.id }),
                })
              }
            >
              Delete
            </Button>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
