import { ActionIcon, Card, Group, Menu, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/**
 * A list of records as a table that scrolls sideways on narrow screens: the column headers, then
 * an 'Actions' column (its header shown, or named for screen readers only), then the rows.
 */
export function DataTable({
  minWidth,
  headers,
  actions = 'shown',
  actionsWidth,
  stickyHeader = false,
  children,
}: {
  minWidth: number;
  headers: ReactNode[];
  actions?: 'shown' | 'hidden';
  actionsWidth?: number;
  stickyHeader?: boolean;
  children: ReactNode;
}) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table highlightOnHover stickyHeader={stickyHeader} verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            {headers.map((h, i) => (
              <Table.Th key={i}>{h}</Table.Th>
            ))}
            <Table.Th w={actionsWidth}>
              {actions === 'shown' ? (
                <Text span size="sm" fw={600}>
                  Actions
                </Text>
              ) : (
                <VisuallyHidden>Actions</VisuallyHidden>
              )}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The phone layout of a list: one card per record, its actions on the right. */
export function CardList<T extends { id: number }>({
  rows,
  card,
  actions,
}: {
  rows: T[];
  card: (row: T) => ReactNode;
  actions: (row: T) => ReactNode;
}) {
  return (
    <Stack gap="sm">
      {rows.map((row) => (
        <Card key={row.id} withBorder padding="sm">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={2}>{card(row)}</Stack>
            {actions(row)}
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

export interface RowAction {
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  /** A link instead of a button. */
  to?: string;
  color?: string;
  disabled?: boolean;
}

/** A record's actions behind a '…' button named for the record ('Actions for Easter Sunday'). */
export function RowActionsMenu({ label, items }: { label: string; items: RowAction[] }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={label}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((a) =>
          a.to ? (
            <Menu.Item
              key={a.label}
              leftSection={a.icon}
              color={a.color}
              disabled={a.disabled}
              component={Link}
              to={a.to}
            >
              {a.label}
            </Menu.Item>
          ) : (
            <Menu.Item key={a.label} leftSection={a.icon} color={a.color} disabled={a.disabled} onClick={a.onClick}>
              {a.label}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
