import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  arrayMove,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import type { ReactNode } from 'react';

type Id = string | number;

/**
 * A list reordered by dragging each row's handle, with the pointer or the keyboard (space, arrows,
 * space), every move announced for screen readers in the row's own name. Rows use `useSortable`.
 */
export function SortableList<T extends { id: Id }>({
  items,
  onReorder,
  nameOf,
  children,
}: {
  items: T[];
  onReorder: (items: T[]) => void;
  /** How a row is announced: 'Sermon', 'Image block'. */
  nameOf: (item: T) => string;
  children: ReactNode;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const indexOf = (id: Id | undefined) => items.findIndex((i) => i.id === id);
  const name = (id: Id) => {
    const item = items[indexOf(id)];
    return item ? nameOf(item) : 'item';
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onReorder(arrayMove(items, indexOf(active.id), indexOf(over.id)));
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{
        announcements: {
          onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over
              ? `${name(active.id)} is now at position ${indexOf(over.id) + 1}.`
              : `${name(active.id)} is not over a position.`,
          onDragEnd: ({ active, over }) =>
            over
              ? `${name(active.id)} was dropped at position ${indexOf(over.id) + 1}.`
              : `${name(active.id)} was dropped.`,
          onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
        },
      }}
    >
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}
