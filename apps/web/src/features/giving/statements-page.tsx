import { Alert, Badge, Button, Group, Paper, Progress, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDownload, IconFileText } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { formatCents } from '@lampstand/api/shared/giving';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { showFailure, useSave } from '../../lib/use-save';
import { confirmAction } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { formatDate, formatNumber } from '../../ui/format';
import { statusColor } from '../../ui/status-color';
import { GivingTabs } from './giving-tabs';

type Run = RouterOutputs['giving']['statementRun'];
type Preview = RouterOutputs['giving']['previewStatements'];

const count = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`;

/** The question before a run: who is emailed, who is printed instead, which addresses are skipped. */
export function statementsQuestion(p: Preview): { title: string; text: string } {
  const parts = [
    `${count(p.toEmail, 'donor', 'donors')} will be emailed their statement for ${formatDate(p.from)} – ${formatDate(p.to)}, with the PDF attached.`,
  ];
  if (p.toPrint > 0) parts.push(`${count(p.toPrint, 'donor gets', 'donors get')} the printed (combined) PDF instead.`);
  if (p.suppressed > 0)
    parts.push(
      `${count(p.suppressed, 'address is', 'addresses are')} suppressed and will be skipped (${p.suppressed === 1 ? 'that statement is' : 'those statements are'} in the PDF to print).`,
    );
  return { title: `Email statements to ${count(p.toEmail, 'donor', 'donors')}?`, text: parts.join(' ') };
}

const STATUS_LABELS: Record<Run['status'], { label: string; color: string }> = {
  queued: { label: 'Waiting', color: statusColor('waiting') },
  building: { label: 'Making statements', color: statusColor('working') },
  sending: { label: 'Emailing', color: statusColor('working') },
  done: { label: 'Done', color: statusColor('success') },
  failed: { label: 'Failed', color: statusColor('failure') },
};

const lastYear = new Date().getFullYear() - 1;

/** The donors the report names: a table of name, email, address and total. */
function DonorReport({ title, donors, empty }: { title: string; donors: Run['withoutEmail']; empty: string }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title} ({formatNumber(donors.length)})
      </Title>
      <DataTable
        label={title}
        rows={donors}
        rowKey={(d) => d.contactId}
        minWidth={520}
        empty={<Text c="dimmed">{empty}</Text>}
        columns={[
          { header: 'Donor', card: 'title', cell: (d) => d.name },
          { header: 'Email', cell: (d) => d.email ?? '—' },
          { header: 'Postal address', cell: (d) => (d.address ? d.address.replace(/\n/g, ', ') : '—') },
          { header: 'Total', cell: (d) => formatCents(d.totalCents) },
        ]}
      />
    </Stack>
  );
}

function RunProgress({ runId }: { runId: number }) {
  const run = trpc.giving.statementRun.useQuery(
    { runId },
    { refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.status) ? false : 1000) },
  );
  const utils = trpc.useUtils();
  const status = run.data?.status;
  // The list of runs shows each run's status: refreshed when this one moves on.
  useEffect(() => {
    if (status) void utils.giving.statementRuns.invalidate();
  }, [status, utils]);
  if (run.isLoading) return <Skeleton h={120} />;
  if (!run.data) return <Alert color="red" title="The statement run could not be loaded" />;
  const r = run.data;
  const label = STATUS_LABELS[r.status];
  const finished = r.status === 'done' || r.status === 'failed';
  const building = r.status === 'queued' || r.status === 'building';
  const value = r.total === 0 ? (finished ? 100 : 0) : (100 * (building ? r.done : r.total)) / r.total;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4">
            Statements for {formatDate(r.from)} – {formatDate(r.to)}
          </Title>
          <Badge variant="light" color={label.color}>
            {label.label}
          </Badge>
        </Group>
        <Progress value={value} animated={!finished} size="lg" aria-label="Statements progress" />
        <Text size="sm">
          {formatNumber(r.done)} of {formatNumber(r.total)} statements made · {formatNumber(r.emailed)} of{' '}
          {formatNumber(r.toEmail)} emailed · {formatNumber(r.toPrint)} to print
          {r.suppressed > 0 ? ` (${formatNumber(r.suppressed)} with a suppressed address)` : ''} ·{' '}
          {formatCents(r.totalCents)} in all
        </Text>
        {r.error ? <Alert color="red">{r.error}</Alert> : null}
        {finished && r.total === 0 ? <Text c="dimmed">No gifts were completed in these dates.</Text> : null}
        {(r.status === 'sending' || r.status === 'done') && r.toPrint > 0 ? (
          <Group>
            <Button
              component="a"
              href={`/api/giving/statements/${r.id}/download`}
              download
              variant="light"
              leftSection={<IconDownload size={18} />}
            >
              Download statements to print
            </Button>
          </Group>
        ) : null}
        {r.status === 'sending' || r.status === 'done' ? (
          <>
            <DonorReport
              title="Donors without an email"
              donors={r.withoutEmail}
              empty="Every donor has an email: each statement was emailed."
            />
            <DonorReport
              title="Donors without a postal address"
              donors={r.withoutAddress}
              empty="Every donor has a postal address."
            />
          </>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Giving → Statements: a statement per donor for a year or any dates, emailed, the rest to print. */
export function StatementsPage() {
  const runs = trpc.giving.statementRuns.useQuery();
  const [from, setFrom] = useState(`${lastYear}-01-01`);
  const [to, setTo] = useState(`${lastYear}-12-31`);
  const [errors, setErrors] = useState<{ from?: string; to?: string }>({});
  const [runId, setRunId] = useState<number | null>(null);
  const start = useSave(trpc.giving.startStatements, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to start the statements',
    success: 'Statements started',
    invalidate: (utils) => utils.giving.statementRuns.invalidate(),
    onSuccess: (r) => setRunId(r.id),
    form: { setFieldError: (path, message) => setErrors((e) => ({ ...e, [path]: message })) },
    fieldErrorsOnly: true,
  });
  const utils = trpc.useUtils();
  const [asking, setAsking] = useState(false);
  // Starting a run emails every donor: ask first, with the counts.
  async function ask() {
    setErrors({});
    setAsking(true);
    try {
      const preview = await utils.giving.previewStatements.fetch({ from, to }, { staleTime: 0 });
      if (preview.donors === 0) {
        showFailure({ errorTitle: 'No statements to make' }, 'No gifts were completed in these dates.');
        return;
      }
      const q = statementsQuestion(preview);
      confirmAction({ ...q, confirm: 'Make and Email Statements', onConfirm: () => start.mutate({ from, to }) });
    } catch (error) {
      // The dates are checked by the count first: a refusal shows as the start's own would.
      start.fail(error);
    } finally {
      setAsking(false);
    }
  }
  const shown = runId ?? runs.data?.[0]?.id ?? null;
  return (
    <>
      <PageHeader title="Giving" description="Funds donors give to, recurring gifts and the gifts received." />
      <GivingTabs />
      <Stack>
        <Paper withBorder p="md">
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void ask();
            }}
          >
            <Stack>
              <Text size="sm">
                One PDF per donor with each gift (date, fund, method, amount) and the total, emailed to donors with an
                email; the others are in one PDF to print.
              </Text>
              <Group align="flex-end" wrap="wrap">
                <TextInput
                  label="From"
                  type="date"
                  withAsterisk
                  value={from}
                  error={errors.from}
                  onChange={(e) => setFrom(e.currentTarget.value)}
                />
                <TextInput
                  label="To"
                  type="date"
                  withAsterisk
                  value={to}
                  error={errors.to}
                  onChange={(e) => setTo(e.currentTarget.value)}
                />
                <Button
                  variant="default"
                  onClick={() => {
                    setFrom(`${lastYear}-01-01`);
                    setTo(`${lastYear}-12-31`);
                  }}
                >
                  Last year ({lastYear})
                </Button>
              </Group>
              <Group>
                <Button type="submit" leftSection={<IconFileText size={18} />} loading={start.isPending || asking}>
                  Make Statements
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
        {shown !== null ? <RunProgress key={shown} runId={shown} /> : null}
        {runs.data && runs.data.length > 0 ? (
          <Paper withBorder p="md">
            <Stack gap="xs">
              <Title order={2} size="h5">
                Earlier statements
              </Title>
              <DataTable
                label="Statement runs"
                rows={runs.data}
                rowKey={(r) => r.id}
                minWidth={480}
                empty={null}
                columns={[
                  {
                    header: 'Dates',
                    card: 'title',
                    cell: (r) => (
                      <Button variant="subtle" size="compact-sm" onClick={() => setRunId(r.id)}>
                        {formatDate(r.from)} – {formatDate(r.to)}
                      </Button>
                    ),
                  },
                  { header: 'Donors', cell: (r) => formatNumber(r.total) },
                  {
                    header: 'Status',
                    cell: (r) => (
                      <Badge variant="light" color={STATUS_LABELS[r.status].color}>
                        {STATUS_LABELS[r.status].label}
                      </Badge>
                    ),
                  },
                  { header: 'Started', cell: (r) => formatDate(r.createdAt) },
                ]}
              />
            </Stack>
          </Paper>
        ) : runs.isLoading ? (
          <Skeleton h={80} />
        ) : null}
      </Stack>
    </>
  );
}
