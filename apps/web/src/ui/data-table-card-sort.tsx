import { ActionIcon, Group, Select } from '@mantine/core';
import { IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import type { Column, DataTableSort } from './data-table';

/** On a phone the column headers are gone: the order is chosen above the cards. */
export function CardSort({
  columns,
  sort,
}: {
  columns: Pick<Column<unknown>, 'header' | 'sortKey'>[];
  sort: DataTableSort;
}) {
  const options = columns.filter((c) => c.sortKey).map((c) => ({ value: c.sortKey!, label: c.header }));
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap" mb="sm">
      <Select
        label="Sort by"
        size="xs"
        data={options}
        value={sort.key}
        allowDeselect={false}
        onChange={(key) => key && sort.onChange({ key, dir: 'asc' })}
        w={180}
      />
      <ActionIcon
        variant="default"
        size={30}
        aria-label={sort.dir === 'asc' ? 'Sort descending' : 'Sort ascending'}
        onClick={() => sort.onChange({ key: sort.key, dir: sort.dir === 'asc' ? 'desc' : 'asc' })}
      >
        {sort.dir === 'asc' ? <IconSortAscending size={16} /> : <IconSortDescending size={16} />}
      </ActionIcon>
    </Group>
  );
}
