import { ActionIcon, Anchor, Badge, Box, Card, Group, Menu, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { SortableList } from '../../ui/sortable-list';
import { IconDots, IconGripVertical, IconPencil, IconTrash } from '@tabler/icons-react';
import { type PlanDetail, type PlanItem } from '@lampstand/api/schemas/service-planner';
import { computeItemTimes } from '@lampstand/api/shared/service-planner';
import { ItemTypeIcon, minutesLabel, timeLabel } from './bits';
import { PlanSongChart } from './song-view-modal';

function ItemRow({
  item,
  startTime,
  people,
  onEdit,
  onDelete,
  onOpenSong,
}: {
  item: PlanItem;
  startTime: string | null;
  people: string[];
  onEdit: () => void;
  onDelete: () => void;
  onOpenSong: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
  });
  const songKey = item.song ? (item.song.keySignature ?? item.song.songKey) : null;
  return (
    <Card
      ref={setNodeRef}
      withBorder
      padding="xs"
      data-testid="plan-item"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        zIndex: isDragging ? 2 : undefined,
        boxShadow: isDragging ? 'var(--mantine-shadow-md)' : undefined,
      }}
    >
      <Group wrap="nowrap" gap="sm" align="center">
        <ActionIcon
          ref={setActivatorNodeRef}
          variant="subtle"
          color="gray"
          aria-label={`Move ${item.title}`}
          style={{ cursor: 'grab', touchAction: 'none' }}
          {...attributes}
          {...listeners}
        >
          <IconGripVertical size={18} />
        </ActionIcon>
        <Stack gap={0} w={72} style={{ flexShrink: 0 }}>
          <Text size="sm" fw={600} data-testid="item-start">
            {timeLabel(startTime)}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {minutesLabel(item.duration)}
          </Text>
        </Stack>
        <Box visibleFrom="sm">
          <ItemTypeIcon type={item.type} />
        </Box>
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={600} data-testid="item-title">
              {item.title}
            </Text>
            {item.type ? (
              <Badge size="sm" variant="dot" color={item.type.color}>
                {item.type.name}
              </Badge>
            ) : null}
            {item.isRehearsalNeeded ? (
              <Badge size="sm" variant="light" color="orange">
                Rehearsal needed
              </Badge>
            ) : null}
          </Group>
          {item.song ? (
            <Text size="xs" c="dimmed">
              <Anchor component="button" type="button" size="xs" onClick={onOpenSong}>
                {item.song.title}
              </Anchor>
              {songKey ? ` · Key of ${songKey}` : ''}
              {item.song.arrangement ? ` · ${item.song.arrangement}` : ''}
            </Text>
          ) : null}
          {people.length ? (
            <Text size="xs" c="dimmed">
              {people.join(', ')}
            </Text>
          ) : null}
        </Stack>
        <Text size="sm" style={{ flexShrink: 0 }} visibleFrom="sm">
          {minutesLabel(item.duration)}
        </Text>
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${item.title}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconPencil size={16} />} onClick={onEdit}>
              Edit
            </Menu.Item>
            <Menu.Item leftSection={<IconTrash size={16} />} color="red" onClick={onDelete}>
              Delete
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Card>
  );
}

/**
 * The plan's items in order, reordered by dragging the handle or from the keyboard (focus the
 * handle, Space to lift, arrow keys to move, Space to drop). Start times follow the new order at once.
 */
export function ItemsList({
  plan,
  items,
  onReorder,
  onEdit,
  onDelete,
}: {
  plan: PlanDetail;
  items: PlanItem[];
  onReorder: (items: PlanItem[]) => void;
  onEdit: (item: PlanItem) => void;
  onDelete: (item: PlanItem) => void;
}) {
  const times = computeItemTimes(plan, items);
  const [chart, setChart] = useState<NonNullable<PlanItem['song']> | null>(null);
  return (
    <>
      <SortableList items={items} onReorder={onReorder} nameOf={(i) => i.title}>
        <Stack gap="xs" aria-label="Order of service">
          {items.map((item, idx) => (
            <ItemRow
              key={item.id}
              item={item}
              startTime={times.starts[idx] ?? null}
              people={plan.assignments
                .filter((a) => a.itemId === item.id && a.status !== 'declined')
                .map((a) => a.memberName)}
              onEdit={() => onEdit(item)}
              onDelete={() => onDelete(item)}
              onOpenSong={() => setChart(item.song)}
            />
          ))}
        </Stack>
      </SortableList>
      {chart ? (
        <PlanSongChart
          songId={chart.songId}
          planKey={chart.keySignature}
          title={chart.title}
          onClose={() => setChart(null)}
        />
      ) : null}
    </>
  );
}
