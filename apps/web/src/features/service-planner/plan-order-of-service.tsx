import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { type PlanDetail, type PlanItem } from '@lampstand/api/schemas/service-planner';
import { computeItemTimes } from '@lampstand/api/shared/service-planner';
import { EmptyState } from '../../ui/empty-state';
import { minutesLabel, timeLabel } from './bits';
import { ItemsList } from './items-list';

/** The order of service: its length against the planned time, and the items to drag, edit or delete. */
export function OrderOfService({
  plan: p,
  items,
  onAdd,
  onReorder,
  onEdit,
  onDelete,
}: {
  plan: PlanDetail;
  items: PlanItem[];
  onAdd: () => void;
  onReorder: (next: PlanItem[]) => void;
  onEdit: (item: PlanItem) => void;
  onDelete: (item: PlanItem) => void;
}) {
  const times = computeItemTimes(p, items);
  return (
    <Card withBorder>
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Stack gap={0}>
          <Title order={3} size="h4">
            Order of Service
          </Title>
          <Text
            size="sm"
            c={times.overBy > 0 ? 'red.8' : 'dimmed'}
            fw={times.overBy > 0 ? 600 : undefined}
            data-testid="plan-length"
          >
            {minutesLabel(times.totalMinutes)}
            {times.endsAt && p.startTime ? ` · ends ${timeLabel(times.endsAt)}` : ''}
            {times.plannedMinutes !== null ? ` · planned ${minutesLabel(times.plannedMinutes)}` : ''}
            {times.overBy > 0 ? ` · ${minutesLabel(times.overBy)} over` : ''}
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={18} />} onClick={onAdd}>
          Add Item
        </Button>
      </Group>
      {items.length ? (
        <>
          <Text size="xs" c="dimmed" mb="xs">
            Drag an item by its handle to move it, or focus the handle and press Space, then the arrow keys, then Space
            again.
          </Text>
          <ItemsList plan={p} items={items} onReorder={onReorder} onEdit={onEdit} onDelete={onDelete} />
        </>
      ) : (
        <EmptyState
          icon={<IconPlus size={24} />}
          title="No items yet"
          description="Add the welcome, songs, prayer, sermon and the rest in order."
        />
      )}
    </Card>
  );
}
