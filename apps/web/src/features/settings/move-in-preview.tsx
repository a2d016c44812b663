import { Alert, Anchor, Button, Group, Progress, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { RouterOutputs } from '@lampstand/api';
import { policyFields, type PolicyField } from '@lampstand/api/schemas/imports';
import { trpc } from '../../lib/trpc';
import { showFailure } from '../../lib/use-save';
import { formatNumber, formatUsd } from '../../ui/format';
import { churchDone } from './move-in-church';

export type MoveIn = RouterOutputs['imports']['get'];
export type Policy = Partial<Record<PolicyField, 'keep' | 'take' | 'fill'>>;

const cents = (n: number) => formatUsd(n / 100);

const FIELD_LABELS: Record<PolicyField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  birthDate: 'Birth date',
};
const POLICY_OPTIONS = [
  { value: 'fill', label: 'Fill empty only' },
  { value: 'keep', label: 'Keep ours' },
  { value: 'take', label: 'Take theirs' },
];

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} size="lg">
        {formatNumber(value)}
      </Text>
    </div>
  );
}

/** A table of funds and years with two figures each (the dry run's totals, the report's file beside ledger). */
function FundYearTable(props: {
  label: string;
  heads: [string, string];
  rows: { fund: string; year: number; cells: { value: string; color?: string }[] }[];
}) {
  return (
    <Table withTableBorder striped aria-label={props.label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Fund</Table.Th>
          <Table.Th>Year</Table.Th>
          {props.heads.map((h) => (
            <Table.Th key={h} ta="right">
              {h}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.rows.map((t) => (
          <Table.Tr key={`${t.fund}-${t.year}`}>
            <Table.Td>{t.fund}</Table.Td>
            <Table.Td>{t.year}</Table.Td>
            {t.cells.map((c, i) => (
              <Table.Td key={i} ta="right" c={c.color}>
                {c.value}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What an undo took back, in a sentence (the undone import's notice and the undo's toast). */
export function undoneWords(imp: MoveIn): string {
  const u = imp.report?.undone;
  return u && imp.kind === 'people'
    ? `${formatNumber(u.contactsRemoved)} people removed, ${formatNumber(u.contactsRestored)} restored.` +
        (u.contactsKept
          ? ` ${formatNumber(u.contactsKept)} kept: they have given, checked in, joined a group, registered or texted since.`
          : '')
    : `${formatNumber(u?.giftsRemoved ?? 0)} gifts removed from the ledger.`;
}

/** The dry run's people: new, matched, changed, skipped, households and children. */
export function PeoplePreview({ imp }: { imp: MoveIn }) {
  const p = imp.preview.people;
  if (!p) return null;
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        People
      </Title>
      <SimpleGrid cols={{ base: 3, sm: 6 }}>
        <Figure label="New" value={p.new} />
        <Figure label="Matched" value={p.matched} />
        <Figure label="Changed" value={p.changed} />
        <Figure label="Skipped" value={p.skipped} />
        <Figure label="Households" value={p.households} />
        <Figure label="Children" value={p.children} />
      </SimpleGrid>
      {p.changes.length ? (
        <Text size="sm">Would change: {p.changes.map((c) => `${c.name} (${c.fields.join(', ')})`).join('; ')}</Text>
      ) : null}
    </Stack>
  );
}

/** The dry run's gifts: counts, funds (new ones made on confirm) and totals per fund and year. */
export function GiftsPreview({ imp }: { imp: MoveIn }) {
  const g = imp.preview.gifts;
  if (!g) return null;
  const newFunds = g.funds.filter((f) => f.isNew).map((f) => f.name);
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Gifts
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Gifts" value={g.count} />
        <Figure label="Refunded" value={g.refunds} />
        <Figure label="Donors found" value={g.donorsMatched} />
        <Figure label="Donors not found" value={g.donorsNotFound} />
      </SimpleGrid>
      <Text size="sm">
        Total in the file: <b>{cents(g.totalCents)}</b>
        {newFunds.length && imp.status === 'previewed'
          ? `. New funds made when you confirm: ${newFunds.join(', ')}`
          : ''}
      </Text>
      <FundYearTable
        label="Totals per fund and year"
        heads={['Lines', 'Total']}
        rows={g.totals.map((t) => ({ ...t, cells: [{ value: formatNumber(t.count) }, { value: cents(t.cents) }] }))}
      />
    </Stack>
  );
}

/** Rows the import cannot read, the first few listed, all of them in a CSV to download. */
export function ProblemsPreview({ imp }: { imp: MoveIn }) {
  const utils = trpc.useUtils();
  const problems = imp.preview.problems;
  if (!problems.length) return <Text size="sm">Every row can be read.</Text>;
  const download = async () => {
    try {
      const file = await utils.imports.problems.fetch({ id: imp.id });
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = file.fileName;
      a.click();
      URL.revokeObjectURL(url);
    } catch (err) {
      showFailure({ errorTitle: 'Failed to download the problems' }, err);
    }
  };
  return (
    <Alert color="yellow" title={`${formatNumber(problems.length)} rows cannot be read`}>
      <Stack gap={4}>
        {problems.slice(0, 5).map((p) => (
          <Text size="sm" key={`${p.line}-${p.column}`}>
            Row {p.line}
            {p.column ? `, ${p.column}` : ''}: {p.reason}
          </Text>
        ))}
        <Group>
          <Button variant="default" size="xs" leftSection={<IconDownload size={16} />} onClick={() => void download()}>
            Download problems (CSV)
          </Button>
        </Group>
        {imp.kind === 'gifts' ? (
          <Text size="sm">Gifts go in only when every line can be read: correct the file and upload it again.</Text>
        ) : (
          <Text size="sm">These rows are skipped when you confirm.</Text>
        )}
      </Stack>
    </Alert>
  );
}

/** What wins for a matched person, field by field. */
export function PolicyPicker({ policy, onChange }: { policy: Policy; onChange: (p: Policy) => void }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        For people already here
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {policyFields.map((f) => (
          <Select
            key={f}
            label={FIELD_LABELS[f]}
            data={POLICY_OPTIONS}
            allowDeselect={false}
            value={policy[f] ?? 'fill'}
            onChange={(v) => onChange({ ...policy, [f]: (v ?? 'fill') as 'keep' | 'take' | 'fill' })}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

const fundsMade = (funds: string[]) => (funds.length ? `; funds made: ${funds.join(', ')}` : '');

/** The background commit's progress, then its report: people written, and the file's totals beside the ledger's. */
export function CommitProgress({ imp }: { imp: MoveIn }) {
  if (imp.status === 'queued' || imp.status === 'running') {
    const value = imp.totalRows ? Math.round((imp.processedRows / imp.totalRows) * 100) : 0;
    return (
      <Stack gap={4}>
        <Text size="sm">
          Importing: {formatNumber(imp.processedRows)} of {formatNumber(imp.totalRows)}
        </Text>
        <Progress value={value} aria-label="Import progress" />
      </Stack>
    );
  }
  if (imp.status === 'failed') {
    return (
      <Alert color="red" title="The import stopped">
        {imp.error ?? 'Something went wrong.'} It resumes where it stopped when it is retried.
      </Alert>
    );
  }
  if (imp.status === 'undone') {
    const u = imp.report?.undone;
    return (
      <Alert color="gray" title="Import undone">
        {undoneWords(imp)}
        {u?.fieldsKept ? ` ${formatNumber(u.fieldsKept)} changes made after the import were kept.` : ''}
      </Alert>
    );
  }
  if (imp.status !== 'completed' || !imp.report) return null;
  const r = imp.report;
  return (
    <Stack gap="xs">
      <Alert color="green" title="Import complete">
        {r.church
          ? churchDone(r.church)
          : r.people
            ? `${formatNumber(r.people.created)} people added, ${formatNumber(r.people.updated)} updated, ${formatNumber(r.people.unchanged)} unchanged.`
            : r.recurring
              ? `${formatNumber(r.recurring.created)} recurring givers added, ${formatNumber(r.recurring.enrolled)} of them asked back by the journey${fundsMade(r.fundsCreated)}. `
              : `Gifts written to the ledger${fundsMade(r.fundsCreated)}.`}
        {r.recurring ? (
          <Anchor component={Link} to="/settings/re-enrolment" size="sm">
            Follow them under Re-enrolment
          </Anchor>
        ) : null}
      </Alert>
      {r.totals.length ? (
        <FundYearTable
          label="File totals and ledger totals"
          heads={['File', 'Ledger']}
          rows={r.totals.map((t) => ({
            ...t,
            cells: [
              { value: cents(t.fileCents) },
              { value: cents(t.ledgerCents), color: t.fileCents === t.ledgerCents ? undefined : 'red' },
            ],
          }))}
        />
      ) : null}
    </Stack>
  );
}
