import { Badge, Button, Card, CloseButton, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { positionFieldsSchema } from '@lampstand/api/schemas/service-planner';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { PLANNER_STALE_MS } from './planner-cache';

export function PositionsCard() {
  const positions = trpc.servicePlanner.positions.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', category: '' },
    validate: schemaResolver(positionFieldsSchema, { sync: true }),
  });
  const create = useSave(trpc.servicePlanner.positions.create, {
    success: 'Position added',
    errorTitle: 'Failed to add position',
    invalidate: (utils) => utils.servicePlanner.positions.invalidate(),
    form,
    onSuccess: () => form.reset(),
  });
  // A position is on members and assignments too: the whole planner is read again.
  const del = useSave(trpc.servicePlanner.positions.delete, {
    errorTitle: 'Failed to delete position',
    invalidate: (utils) => utils.servicePlanner.invalidate(),
  });
  const groups = new Map<string, NonNullable<typeof positions.data>>();
  for (const p of positions.data ?? []) {
    const k = p.category ?? 'Other';
    groups.set(k, [...(groups.get(k) ?? []), p]);
  }
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="xs">
        Positions
      </Title>
      <Stack gap="xs">
        {[...groups].map(([category, list]) => (
          <Stack key={category} gap={4}>
            <Text size="sm" fw={600}>
              {category}
            </Text>
            <Group gap={6}>
              {list.map((p) => (
                <Badge
                  key={p.id}
                  variant="light"
                  rightSection={
                    <CloseButton
                      size="xs"
                      aria-label={`Delete position ${p.name}`}
                      onClick={() =>
                        confirmDestructive({
                          title: 'Delete position',
                          text: `Delete the position ${p.name}? Members lose it and assignments keep the person without a position.`,
                          confirm: 'Delete',
                          onConfirm: () => del.mutate({ id: p.id }),
                        })
                      }
                    />
                  }
                >
                  {p.name}
                </Badge>
              ))}
            </Group>
          </Stack>
        ))}
        <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
          <Stack gap="xs">
            <TextInput label="Position name" placeholder="e.g. Keys" {...form.getInputProps('name')} />
            <TextInput label="Category" placeholder="e.g. Band" {...form.getInputProps('category')} />
            <Button type="submit" variant="light" leftSection={<IconPlus size={18} />} loading={create.isPending}>
              Add Position
            </Button>
          </Stack>
        </form>
      </Stack>
    </Card>
  );
}
