import { ActionIcon, Button, Group, Modal, NumberInput, Paper, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { createChildGroupSchema } from '@lampstand/api/schemas/contacts';
import { formatAgeRange } from '@lampstand/api/shared/contacts';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';

type Group_ = RouterOutputs['childGroups']['list'][number];

function GroupForm({ group, onDone }: { group?: Group_; onDone: () => void }) {
  const utils = trpc.useUtils();
  const form = useForm<{ name: string; description: string; ageMin: number | string; ageMax: number | string }>({
    mode: 'controlled',
    initialValues: {
      name: group?.name ?? '',
      description: group?.description ?? '',
      ageMin: group?.ageMin ?? '',
      ageMax: group?.ageMax ?? '',
    },
    validate: schemaResolver(createChildGroupSchema, { sync: true }),
  });
  const done = async () => {
    await utils.childGroups.list.invalidate();
    await utils.children.list.invalidate();
    form.reset();
    onDone();
  };
  const create = useSave(trpc.childGroups.create, {
    success: 'Group created',
    errorTitle: 'Error creating group',
    onSuccess: done,
  });
  const update = useSave(trpc.childGroups.update, {
    success: 'Group updated',
    errorTitle: 'Error updating group',
    onSuccess: done,
  });
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((v) => {
        const payload = {
          name: v.name,
          description: v.description,
          ageMin: v.ageMin === '' ? null : Number(v.ageMin),
          ageMax: v.ageMax === '' ? null : Number(v.ageMax),
        };
        if (group) update.mutate({ id: group.id, ...payload });
        else create.mutate(payload);
      })}
    >
      <Stack gap="xs">
        <TextInput label="Group name" withAsterisk {...form.getInputProps('name')} />
        <TextInput label="Description" {...form.getInputProps('description')} />
        <Group grow>
          <NumberInput label="Minimum age" min={0} max={30} {...form.getInputProps('ageMin')} />
          <NumberInput label="Maximum age" min={0} max={30} {...form.getInputProps('ageMax')} />
        </Group>
        <Group justify="flex-end">
          {group ? (
            <Button variant="default" size="sm" onClick={onDone}>
              Cancel
            </Button>
          ) : null}
          <Button type="submit" size="sm" loading={create.isPending || update.isPending}>
            {group ? 'Save Group' : 'Add Group'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Child groups (e.g. 'Little Lambs (2-4 years)'): create, rename and delete. */
export function ChildGroupsDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const groups = trpc.childGroups.list.useQuery(undefined, { enabled: opened });
  const [editing, setEditing] = useState<number | null>(null);
  const del = useSave(trpc.childGroups.delete, {
    success: 'Group deleted',
    errorTitle: 'Error deleting group',
    invalidate: (utils) => [utils.childGroups.list.invalidate(), utils.children.list.invalidate()],
  });
  return (
    <Modal opened={opened} onClose={onClose} title="Child Groups" size="lg" centered>
      <Stack>
        {(groups.data ?? []).length === 0 ? (
          <Text c="dimmed" size="sm">
            No child groups yet
          </Text>
        ) : (
          groups.data!.map((g) =>
            editing === g.id ? (
              <Paper key={g.id} withBorder p="sm">
                <GroupForm group={g} onDone={() => setEditing(null)} />
              </Paper>
            ) : (
              <Paper key={g.id} withBorder p="sm">
                <Group justify="space-between" wrap="nowrap">
                  <Stack gap={0}>
                    <Text fw={600}>
                      {g.name}{' '}
                      <Text span c="dimmed" size="sm">
                        {formatAgeRange(g)}
                      </Text>
                    </Text>
                    {g.description ? <Text size="sm">{g.description}</Text> : null}
                  </Stack>
                  <Group gap={4}>
                    <ActionIcon variant="subtle" aria-label={`Edit ${g.name}`} onClick={() => setEditing(g.id)}>
                      <IconPencil size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Delete ${g.name}`}
                      onClick={() =>
                        confirmDestructive({
                          title: `Delete ${g.name}?`,
                          text: <>Children in this group stay, without a group.</>,
                          confirm: 'Delete',
                          onConfirm: () => del.mutate({ id: g.id }),
                        })
                      }
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Group>
              </Paper>
            ),
          )
        )}
        <Paper withBorder p="sm" bg="gray.0">
          <Text fw={600} size="sm" mb="xs">
            New group
          </Text>
          <GroupForm onDone={() => undefined} />
        </Paper>
      </Stack>
    </Modal>
  );
}
