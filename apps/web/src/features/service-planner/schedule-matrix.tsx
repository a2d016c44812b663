import { Badge, Group, Stack, Table, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { MATRIX_STATUS_LABELS, type MatrixStatus } from '@lampstand/api/schemas/service-planner';
import classes from './schedule-matrix.module.css';
import { dayLabel } from './bits';

// The scheduling matrix: people × dates, each cell what the person does that day.
// One component for the everyday matrix and the auto-schedule proposal. On a phone it scrolls
// sideways inside a labelled region, the names staying in view.

/** What a cell shows of one assignment: its position and time, and its status in words and colour. */
export interface MatrixCellEntry {
  key: string | number;
  position: string;
  /** '9:00 AM', 'All times', or null for a plan held once. */
  time: string | null;
  status: MatrixStatus | 'proposed';
}

export interface MatrixRow {
  id: number;
  name: string;
  /** A row of what is not filled, not a person: its cells are not buttons. */
  notFilled?: boolean;
  /** One per date, in the order of `dates`. */
  cells: MatrixCell[];
}

export interface MatrixCell {
  /** Blocked out that day, with the blockout's reason when it has one. */
  away?: boolean;
  awayReason?: string | null;
  entries: MatrixCellEntry[];
  /** What could not be filled that day, and why (the auto-schedule proposal's 'Not filled' row). */
  unfilled?: { position: string; reason: string }[];
}

const STATUS_COLOURS = { pending: 'yellow', accepted: 'green', declined: 'red', proposed: 'indigo' } as const;
const statusLabel = (s: MatrixCellEntry['status']) => (s === 'proposed' ? 'Proposed' : MATRIX_STATUS_LABELS[s]);

/** A status as a coloured badge with its word (never colour alone). */
export function MatrixStatusBadge({ status }: { status: MatrixCellEntry['status'] }) {
  return (
    <Badge
      size="sm"
      variant="light"
      tt="none"
      color={STATUS_COLOURS[status]}
      className={classes.status}
      data-status={status}
    >
      {statusLabel(status)}
    </Badge>
  );
}

function CellContent({ away, awayReason, entries, unfilled = [] }: MatrixCell) {
  return (
    <Stack gap={6}>
      {entries.map((e) => (
        <div key={e.key} className={classes.entry} data-status={e.status}>
          <Text size="sm" fw={600} lh={1.3}>
            {e.position}
          </Text>
          <Group gap={4} wrap="wrap">
            <MatrixStatusBadge status={e.status} />
            {e.time ? (
              <Text size="xs" c="dimmed">
                {e.time}
              </Text>
            ) : null}
          </Group>
        </div>
      ))}
      {away ? (
        <div>
          <Text size="xs" fw={700}>
            Away
          </Text>
          {awayReason ? (
            <Text size="xs" lh={1.3}>
              {awayReason}
            </Text>
          ) : null}
        </div>
      ) : null}
      {unfilled.map((u, i) => (
        <div key={i} className={classes.entry} data-status="unfilled">
          <Text size="sm" fw={600} lh={1.3}>
            {u.position}: not filled
          </Text>
          <Text size="xs" lh={1.3}>
            {u.reason}
          </Text>
        </div>
      ))}
      {entries.length === 0 && !away && unfilled.length === 0 ? (
        <>
          <Text size="xs" c="dimmed" aria-hidden>
            –
          </Text>
          <VisuallyHidden>not scheduled</VisuallyHidden>
        </>
      ) : null}
    </Stack>
  );
}

export function ScheduleMatrix({
  label,
  dates,
  rows,
  onCellClick,
}: {
  /** Names the scrolling region and the table. */
  label: string;
  dates: string[];
  rows: MatrixRow[];
  /** Makes each cell a button (change it). */
  onCellClick?: (row: MatrixRow, dateIndex: number) => void;
}) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={classes.scroller}>
      <Table aria-label={label} withTableBorder withColumnBorders className={classes.table}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th className={classes.sticky} scope="col">
              Person
            </Table.Th>
            {dates.map((d) => (
              <Table.Th key={d} scope="col" className={classes.date}>
                {dayLabel(d)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Th scope="row" className={classes.sticky}>
                {row.name}
              </Table.Th>
              {row.cells.map((cell, i) => (
                <Table.Td
                  key={dates[i]}
                  className={cell.away ? classes.away : undefined}
                  p={onCellClick && !row.notFilled ? 0 : 'xs'}
                >
                  {onCellClick && !row.notFilled ? (
                    <UnstyledButton className={classes.cellButton} onClick={() => onCellClick(row, i)}>
                      {/* The button's name: who and when, then what the cell shows. */}
                      <VisuallyHidden>{`${row.name}, ${dayLabel(dates[i]!)}: `}</VisuallyHidden>
                      <CellContent {...cell} />
                    </UnstyledButton>
                  ) : (
                    <CellContent {...cell} />
                  )}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
