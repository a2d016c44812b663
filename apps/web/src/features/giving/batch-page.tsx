import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { RouterOutputs } from '@lampstand/api';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { BATCH_METHODS } from '@lampstand/api/schemas/giving';
import { formatCents, goodsServicesText } from '@lampstand/api/shared/giving';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { confirmDestructive } from '../../ui/confirm';
import { DataTable } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import { formatDate } from '../../ui/format';
import { dollarsToCents } from './batches-page';

const METHOD_LABEL = { cash: 'Cash', check: 'Check', other: 'Other', card: 'Card' } as const;
type LineField = 'amountCents' | 'goodsServices' | 'goodsServicesCents' | 'reason';

function AddLine({ batchId, committed }: { batchId: number; committed: boolean }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const contacts = trpc.contacts.find.useQuery({ search: debounced || undefined, pageSize: 20 });
  const funds = trpc.funds.list.useQuery({ status: 'active' });
  const [contactId, setContactId] = useState<string | null>(null);
  const [fundId, setFundId] = useState<string | null>(null);
  const [method, setMethod] = useState<string>('check');
  const [amount, setAmount] = useState('');
  const [checkNumber, setCheckNumber] = useState('');
  const [reason, setReason] = useState('');
  const [goods, setGoods] = useState('');
  const [goodsValue, setGoodsValue] = useState('');
  // The fund of the line just added: the next line keeps it, and says so under the field.
  const [carried, setCarried] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<LineField, string>>>({});
  const fieldError = (field: LineField, message: string) => setErrors((e) => ({ ...e, [field]: message }));
  const add = useSave(trpc.giving.addBatchLine, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to add the line',
    success: 'Line added',
    invalidate: (utils) => [utils.giving.batch.invalidate({ id: batchId }), utils.giving.batches.invalidate()],
    onSuccess: (_line, input) => {
      setCarried(String(input.fundId));
      setAmount('');
      setCheckNumber('');
      setReason('');
      setGoods('');
      setGoodsValue('');
      setContactId(null);
    },
    form: { setFieldError: (path, message) => fieldError(path as LineField, message) },
    fieldErrorsOnly: true,
  });
  const fund = fundId ?? (funds.data?.[0] ? String(funds.data[0].id) : null);
  const fundName = funds.data?.find((f) => String(f.id) === fund)?.name;
  const sameAsAbove = carried !== null && carried === fund && fundName !== undefined;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setErrors({});
        const cents = dollarsToCents(amount);
        if (cents === null || cents < 1) return fieldError('amountCents', 'Enter an amount, e.g. 25.00');
        const goodsCents = goodsValue.trim() ? dollarsToCents(goodsValue) : null;
        if (goodsValue.trim() && goodsCents === null)
          return fieldError('goodsServicesCents', 'Enter the value, e.g. 15.00');
        if (!fund) return;
        add.mutate({
          id: batchId,
          contactId: contactId ? Number(contactId) : null,
          fundId: Number(fund),
          amountCents: cents,
          method: method as (typeof BATCH_METHODS)[number],
          checkNumber,
          goodsServices: goods,
          goodsServicesCents: goodsCents,
          ...(committed ? { reason } : {}),
        });
      }}
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          {committed ? 'Add a correction' : 'Add a line'}
        </Title>
        <Group grow wrap="wrap" align="flex-start">
          <Select
            label="Donor"
            placeholder="Anonymous cash"
            searchable
            clearable
            searchValue={search}
            onSearchChange={setSearch}
            value={contactId}
            onChange={setContactId}
            filter={({ options }) => options}
            data={(contacts.data?.items ?? []).map((c) => ({
              value: String(c.id),
              label: `${c.firstName} ${c.lastName}`.trim() + (c.email ? ` (${c.email})` : ''),
            }))}
          />
          <Select
            label="Fund"
            allowDeselect={false}
            value={fund}
            onChange={setFundId}
            description={sameAsAbove ? `Same as the line above: ${fundName}. Choose another to change it.` : undefined}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            styles={
              sameAsAbove ? { description: { color: 'var(--mantine-color-indigo-9)', fontWeight: 500 } } : undefined
            }
            data={(funds.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
          />
        </Group>
        <Group grow wrap="wrap" align="flex-start">
          <TextInput
            label="Amount (USD)"
            withAsterisk
            inputMode="decimal"
            value={amount}
            error={errors.amountCents}
            onChange={(e) => setAmount(e.currentTarget.value)}
          />
          <Select
            label="Method"
            allowDeselect={false}
            value={method}
            onChange={(v) => setMethod(v ?? 'check')}
            data={BATCH_METHODS.map((m) => ({ value: m, label: METHOD_LABEL[m] }))}
          />
          <TextInput
            label="Check number"
            disabled={method !== 'check'}
            value={checkNumber}
            onChange={(e) => setCheckNumber(e.currentTarget.value)}
          />
        </Group>
        <Group grow wrap="wrap" align="flex-end">
          <TextInput
            label="Goods or services received"
            description="Only if the donor got something for the gift (a dinner ticket): statements name it"
            value={goods}
            error={errors.goodsServices}
            onChange={(e) => setGoods(e.currentTarget.value)}
          />
          <TextInput
            label="Their value (USD)"
            description="A good-faith estimate"
            inputMode="decimal"
            value={goodsValue}
            error={errors.goodsServicesCents}
            onChange={(e) => setGoodsValue(e.currentTarget.value)}
          />
        </Group>
        {committed ? (
          <TextInput
            label="Reason"
            withAsterisk
            value={reason}
            error={errors.reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        ) : null}
        <Group>
          <Button type="submit" loading={add.isPending}>
            {committed ? 'Add Correction' : 'Add Line'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** One batch: its lines, the totals against the count, and Commit (locks it). */
export function BatchPage() {
  const id = Number(useParams().id);
  const batch = trpc.giving.batch.useQuery({ id }, { enabled: Number.isInteger(id) && id > 0 });
  const commit = useSave(trpc.giving.commitBatch, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to commit',
    success: 'Batch committed',
    invalidate: (utils) => [utils.giving.batch.invalidate({ id }), utils.giving.batches.invalidate()],
  });
  const [reversing, setReversing] = useState<BatchLine | null>(null);
  if (batch.isLoading) return <Skeleton height={200} />;
  if (batch.isError || !batch.data) return <Alert color="red" title="Batch not found" />;
  const b = batch.data;
  const matches = b.linesTotalCents === b.expectedTotalCents;
  const committed = b.status === 'committed';
  return (
    <>
      <PageHeader
        title={b.description || `Batch of ${formatDate(b.batchDate)}`}
        description={`${formatDate(b.batchDate)} · counted ${formatCents(b.expectedTotalCents)}`}
        action={
          committed ? (
            <Badge size="lg" color="green" variant="light">
              Committed
            </Badge>
          ) : (
            <Button
              disabled={!matches || b.lineCount === 0}
              loading={commit.isPending}
              onClick={() =>
                confirmDestructive({
                  title: 'Commit this batch?',
                  text: 'Its gifts will count and the batch is locked: a later change is a correction line with its reason.',
                  confirm: 'Commit',
                  onConfirm: () => commit.mutate({ id }),
                })
              }
            >
              Commit
            </Button>
          )
        }
      />
      <Stack>
        <Text fw={600} c={matches ? 'teal.9' : 'red.9'} role="status">
          Lines total {formatCents(b.linesTotalCents)} of the counted {formatCents(b.expectedTotalCents)}
          {matches ? '' : ` (${formatCents(b.expectedTotalCents - b.linesTotalCents)} to go)`}
        </Text>
        <Paper withBorder p="md">
          <DataTable
            label="Batch lines"
            rows={b.lines}
            rowKey={(l) => l.id}
            minWidth={560}
            empty={<Text c="dimmed">No lines yet.</Text>}
            columns={[
              { header: 'Donor', card: 'title', cell: (l) => l.donorName, note: (l) => l.correctionReason },
              {
                header: 'Fund',
                cell: (l) => l.fundName,
                note: (l) =>
                  l.goodsServices ? `Received: ${goodsServicesText(l.goodsServices, l.goodsServicesCents)}` : null,
              },
              { header: 'Method', cell: (l) => METHOD_LABEL[l.method] + (l.checkNumber ? ` #${l.checkNumber}` : '') },
              {
                header: 'Amount',
                cell: (l) =>
                  l.status === 'refunded' ? (
                    <Text component="span" size="sm" td="line-through">
                      {formatCents(l.amountCents)}
                    </Text>
                  ) : (
                    formatCents(l.amountCents)
                  ),
                note: (l) => (l.reversalReason ? `Reversed: ${l.reversalReason}` : null),
              },
            ]}
            actionsHeader="hidden"
            actions={(l) =>
              committed && l.status === 'completed' ? (
                <Button size="xs" variant="subtle" color="red" onClick={() => setReversing(l)}>
                  Reverse
                </Button>
              ) : null
            }
          />
        </Paper>
        <Paper withBorder p="md">
          <AddLine batchId={id} committed={committed} />
        </Paper>
      </Stack>
      <ReverseLineDialog batchId={id} line={reversing} onClose={() => setReversing(null)} />
    </>
  );
}

type BatchLine = RouterOutputs['giving']['batch']['lines'][number];

/** Reverse a committed line (a bounced check, a line entered twice): the reason is kept with it. */
function ReverseLineDialog({
  batchId,
  line,
  onClose,
}: {
  batchId: number;
  line: BatchLine | null;
  onClose: () => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const reverse = useSave(trpc.giving.reverseBatchLine, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to reverse the line',
    success: 'Line reversed',
    invalidate: (utils) => [utils.giving.batch.invalidate({ id: batchId }), utils.giving.batches.invalidate()],
    onSuccess: () => {
      setReason('');
      onClose();
    },
  });
  return (
    <Modal
      opened={line !== null}
      onClose={onClose}
      title={line ? `Reverse ${line.donorName}'s ${formatCents(line.amountCents)}?` : 'Reverse'}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!line) return;
          if (!reason.trim()) return setError('Reason is required');
          reverse.mutate({ id: batchId, lineId: line.id, reason: reason.trim() });
        }}
      >
        <Stack>
          <Text size="sm">
            The gift is taken off every total and the donor’s statement. The line stays in the batch, marked reversed.
          </Text>
          <TextInput
            label="Reason"
            placeholder="Check returned by the bank"
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={reverse.isPending}>
              Reverse
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
