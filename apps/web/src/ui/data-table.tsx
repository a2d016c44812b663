import {
  ActionIcon,
  Card,
  Group,
  Menu,
  Stack,
  Table,
  Text,
  UnstyledButton,
  VisuallyHidden,
  type TableProps,
  type TableTdProps,
  type TableThProps,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconDots, IconSelector } from '@tabler/icons-react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import classes from './data-table.module.css';

// The phone's 'Sort by' (a Select, with Mantine's combobox) loads with the first sortable card list:
// the dashboard's table sorts nothing and is on the staff app's first load.
const CardSort = lazy(() => import('./data-table-card-sort').then((m) => ({ default: m.CardSort })));

/** Where the table becomes cards: below Mantine's `sm` (48em, 768 px), as the navbar folds away. */
export const WIDE_QUERY = '(min-width: 48em)';

/** The screen is wide enough for tables (768 px and up), read at once (no first frame as a phone). */
export function useWide(): boolean {
  return useMediaQuery(WIDE_QUERY, true, { getInitialValueInEffect: false });
}

export interface Column<T> {
  /** The column's header, and the value's label on a phone's card. */
  header: string;
  cell: (row: T) => ReactNode;
  /**
   * On a phone's card: 'title' is the record's name, first and without a label (one column has it);
   * 'hidden' leaves the value out (the title or another value already says it); 'start' puts it
   * before the title, unlabelled (a tick box that selects the record); by default a labelled value.
   * Empty values (null, '', undefined) are left out of a card.
   */
  card?: 'title' | 'hidden' | 'start';
  /** A smaller grey line under the value (a campaign's subject, when it was sent). */
  note?: (row: T) => ReactNode;
  /** With `sort`: the key this column sorts by (its header becomes a button). */
  sortKey?: string;
  td?: TableTdProps;
  th?: TableThProps;
}

export interface DataTableSort {
  key: string;
  dir: 'asc' | 'desc';
  onChange: (next: { key: string; dir: 'asc' | 'desc' }) => void;
}

export interface DataTableProps<T> {
  /** What the rows are ('Contacts'): names the table, and the list of cards on a phone. */
  label: string;
  rows: T[];
  rowKey: (row: T) => string | number;
  columns: Column<T>[];
  /** A record's actions: the last column of the table, the last line of its card. */
  actions?: (row: T) => ReactNode;
  /** The actions column's header: 'Actions' shown, or named for screen readers only. */
  actionsHeader?: 'shown' | 'hidden';
  actionsTd?: TableTdProps;
  actionsWidth?: number;
  /** Wider than this, the table scrolls sideways inside its box (no scroll box when not given). */
  minWidth?: number;
  stickyHeader?: boolean;
  /** Props of the table itself (striped, verticalSpacing…) over the defaults. */
  table?: TableProps;
  /** Shown instead of the rows when there are none (loading, an error, 'No results found.'). */
  empty?: ReactNode;
  sort?: DataTableSort;
}

/** A column's value for a row, with its note under it. */
function Value<T>({ column, row }: { column: Column<T>; row: T }) {
  const note = column.note?.(row);
  return (
    <>
      {column.cell(row)}
      {isEmpty(note) ? null : (
        <Text size="xs" c="dimmed" fw={400} lineClamp={2}>
          {note}
        </Text>
      )}
    </>
  );
}

const isEmpty = (v: ReactNode) => v === null || v === undefined || v === '' || v === false;

/**
 * A list of records: a table on screens 768 px and wider, and on phones one card per record with
 * its name first, each other value under its column's name, and its actions last.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const wide = useWide();
  return wide ? <WideTable {...props} /> : <CardList {...props} />;
}

function WideTable<T>({
  label,
  rows,
  rowKey,
  columns,
  actions,
  actionsHeader = 'shown',
  actionsTd,
  actionsWidth,
  minWidth,
  stickyHeader = false,
  table,
  empty,
  sort,
}: DataTableProps<T>) {
  const span = columns.length + (actions ? 1 : 0);
  const body = (
    <Table aria-label={label} highlightOnHover stickyHeader={stickyHeader} verticalSpacing="sm" {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) =>
            sort && c.sortKey ? (
              <SortHeader key={c.header} column={c} sort={sort} sortKey={c.sortKey} />
            ) : (
              <Table.Th key={c.header} {...c.th}>
                {c.header}
              </Table.Th>
            ),
          )}
          {actions ? (
            <Table.Th w={actionsWidth}>
              {actionsHeader === 'shown' ? (
                <Text span size="sm" fw={600}>
                  Actions
                </Text>
              ) : (
                <VisuallyHidden>Actions</VisuallyHidden>
              )}
            </Table.Th>
          ) : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.length === 0 && empty !== undefined ? (
          <Table.Tr>
            <Table.Td colSpan={span} ta="center" py="xl">
              {empty}
            </Table.Td>
          </Table.Tr>
        ) : (
          rows.map((r) => (
            <Table.Tr key={rowKey(r)}>
              {columns.map((c) => (
                <Table.Td key={c.header} {...c.td}>
                  <Value column={c} row={r} />
                </Table.Td>
              ))}
              {actions ? <Table.Td {...actionsTd}>{actions(r)}</Table.Td> : null}
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
  return minWidth ? <Table.ScrollContainer minWidth={minWidth}>{body}</Table.ScrollContainer> : body;
}

function SortHeader<T>({ column, sort, sortKey }: { column: Column<T>; sort: DataTableSort; sortKey: string }) {
  const active = sort.key === sortKey;
  const Icon = active ? (sort.dir === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'} {...column.th}>
      <UnstyledButton
        className={classes.sortButton}
        onClick={() => sort.onChange({ key: sortKey, dir: active && sort.dir === 'asc' ? 'desc' : 'asc' })}
      >
        {column.header}
        <Icon size={14} aria-hidden />
      </UnstyledButton>
    </Table.Th>
  );
}

function CardList<T>({ label, rows, rowKey, columns, actions, empty, sort }: DataTableProps<T>) {
  const title = columns.find((c) => c.card === 'title');
  const start = columns.filter((c) => c.card === 'start');
  const fields = columns.filter((c) => !c.card);
  return (
    <>
      {sort && rows.length > 1 ? (
        <Suspense fallback={null}>
          <CardSort columns={columns} sort={sort} />
        </Suspense>
      ) : null}
      {rows.length === 0 && empty !== undefined ? (
        <Text ta="center" py="xl" size="sm">
          {empty}
        </Text>
      ) : (
        <Stack component="ul" gap="sm" className={classes.cards} aria-label={label}>
          {rows.map((r) => (
            <Card component="li" key={rowKey(r)} withBorder padding="sm" className={classes.card}>
              {title || start.length > 0 ? (
                <div className={classes.head}>
                  {start.map((c) => (
                    <div key={c.header} className={classes.start}>
                      {c.cell(r)}
                    </div>
                  ))}
                  {title ? (
                    <div className={classes.title}>
                      <Value column={title} row={r} />
                    </div>
                  ) : null}
                </div>
              ) : null}
              <dl className={classes.fields}>
                {fields.map((c) => {
                  return isEmpty(c.cell(r)) ? null : (
                    <div key={c.header} className={classes.field}>
                      <dt>{c.header}</dt>
                      <dd>
                        <Value column={c} row={r} />
                      </dd>
                    </div>
                  );
                })}
              </dl>
              <CardActions>{actions?.(r)}</CardActions>
            </Card>
          ))}
        </Stack>
      )}
    </>
  );
}

/** A card's last line: its actions, left out (with the line above it) when a record has none. */
function CardActions({ children }: { children: ReactNode }) {
  if (isEmpty(children)) return null;
  return (
    <Group gap="xs" justify="flex-end" className={classes.actions}>
      {children}
    </Group>
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
