import { Table, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';

export type SortKey = 'id' | 'churchName' | 'username' | 'email' | 'role';

export function SortHeader({
  label,
  active,
  dir,
  onClick,
}: {
  label: string;
  active: boolean;
  dir: 'asc' | 'desc';
  onClick: () => void;
}) {
  const Icon = active ? (dir === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={onClick} style={{ display: 'flex', alignItems: 'center', gap: 4, fontWeight: 600 }}>
        {label}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}
