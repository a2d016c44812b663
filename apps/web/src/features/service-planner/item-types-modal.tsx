import { ActionIcon, Badge, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconTrash } from '@tabler/icons-react';
import {
  ITEM_TYPE_COLORS,
  ITEM_TYPE_ICONS,
  itemTypeFieldsSchema,
  type ItemType,
} from '@lampstand/api/schemas/service-planner';
import type { z } from 'zod';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { ItemTypeIcon } from './bits';
import { PLANNER_STALE_MS } from './planner-cache';

type TypeInput = z.input<typeof itemTypeFieldsSchema>;

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The church's item types: the eight defaults and its own, each with a colour and an icon. */
export function ItemTypesModal({ onClose }: { onClose: () => void }) {
  const types = trpc.servicePlanner.itemTypes.list.useQuery(undefined, { staleTime: PLANNER_STALE_MS });
  const form = useForm<TypeInput>({
    mode: 'controlled',
    initialValues: { name: '', color: 'gray', icon: 'circle' },
    validate: schemaResolver(itemTypeFieldsSchema, { sync: true }),
  });
  const create = useSave(trpc.servicePlanner.itemTypes.create, {
    success: 'Item type added',
    errorTitle: 'Failed to add item type',
    invalidate: (utils) => utils.servicePlanner.itemTypes.invalidate(),
    form,
    onSuccess: () => form.reset(),
  });
  // Plans show their items' types: the whole planner is read again.
  const del = useSave(trpc.servicePlanner.itemTypes.delete, {
    errorTitle: 'Failed to delete item type',
    invalidate: (utils) => utils.servicePlanner.invalidate(),
  });
  const remove = (t: ItemType) =>
    confirmDestructive({
      title: 'Delete item type',
      text: `Delete the item type ${t.name}? Items of this type keep their place and title.`,
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: t.id }),
    });
  return (
    <Modal opened onClose={onClose} title="Item Types" size="lg">
      <Stack>
        <Stack gap="xs">
          {(types.data ?? []).map((t) => (
            <Group key={t.id} justify="space-between">
              <Group gap="sm">
                <ItemTypeIcon type={t} />
                <Text size="sm" fw={600}>
                  {t.name}
                </Text>
                {t.isDefault ? (
                  <Badge size="sm" variant="light" color="gray">
                    Default
                  </Badge>
                ) : null}
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete item type ${t.name}`}
                onClick={() => remove(t)}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
        <form onSubmit={form.onSubmit((v) => create.mutate(v))} noValidate>
          <Stack gap="xs">
            <Text size="sm" fw={600}>
              Add your own
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
              <Select
                label="Colour"
                allowDeselect={false}
                data={ITEM_TYPE_COLORS.map((c) => ({ value: c, label: capital(c) }))}
                {...form.getInputProps('color')}
              />
              <Select
                label="Icon"
                allowDeselect={false}
                data={ITEM_TYPE_ICONS.map((c) => ({ value: c, label: capital(c) }))}
                {...form.getInputProps('icon')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={create.isPending}>
                Add Item Type
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Modal>
  );
}
