import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { SortableList } from '../../ui/sortable-list';
import { ActionIcon, Group, Paper, Stack, Text } from '@mantine/core';
import { IconGripVertical, IconTrash } from '@tabler/icons-react';
import type { Dispatch, SetStateAction } from 'react';
import { BLOCK_TYPES, type Block } from '@lampstand/api/schemas/landing-pages';
import { BlockEditor } from './block-editors';

export const label = (b: Block) => BLOCK_TYPES.find((t) => t.type === b.type)?.label ?? b.type;
export const newId = () => `b${Math.random().toString(36).slice(2, 10)}`;

export function SortableBlock({
  block,
  index,
  blocks,
  onChange,
  onRemove,
}: {
  block: Block;
  index: number;
  blocks: Block[];
  onChange: (b: Block) => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: block.id,
  });
  const name = `${index + 1}. ${label(block)}`;
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="md"
      radius="md"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        boxShadow: isDragging ? 'var(--mantine-shadow-md)' : undefined,
      }}
      component="section"
      aria-label={`${name} block`}
    >
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={`Reorder ${name}`}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <IconGripVertical size={18} />
          </ActionIcon>
          <Text fw={600}>{name}</Text>
        </Group>
        <ActionIcon variant="subtle" color="red" size="lg" aria-label={`Remove ${name}`} onClick={onRemove}>
          <IconTrash size={18} />
        </ActionIcon>
      </Group>
      <BlockEditor block={block} onChange={onChange} blocks={blocks} />
    </Paper>
  );
}

/** The blocks in order, each dragged by its handle (pointer or keyboard, announced for screen readers). */
export function BlockList({ blocks, setBlocks }: { blocks: Block[]; setBlocks: Dispatch<SetStateAction<Block[]>> }) {
  return (
    <SortableList items={blocks} onReorder={setBlocks} nameOf={(b) => `${label(b)} block`}>
      <Stack>
        {blocks.map((b, i) => (
          <SortableBlock
            key={b.id}
            block={b}
            index={i}
            blocks={blocks}
            onChange={(nb) => setBlocks((bs) => bs.map((x) => (x.id === b.id ? nb : x)))}
            onRemove={() => setBlocks((bs) => bs.filter((x) => x.id !== b.id))}
          />
        ))}
      </Stack>
    </SortableList>
  );
}
