import { Alert, Badge, Button, Modal, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { formatCents } from '@lampstand/api/shared/giving';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { DataTable } from '../../ui/data-table';
import { FormActions } from '../../ui/form-actions';
import { PageHeader } from '../../ui/page-header';
import { formatDate } from '../../ui/format';
import { GivingTabs } from './giving-tabs';

/** '12.50' → 1250 whole cents (no float error); null when it is not an amount. */
export function dollarsToCents(v: string): number | null {
  const m = /^\$?(\d{1,9})(?:\.(\d{0,2}))?$/.exec(v.trim().replace(/,/g, ''));
  return m ? Number(m[1]) * 100 + Number(`${m[2] ?? ''}00`.slice(0, 2)) : null;
}

function NewBatchModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [date, setDate] = useState(new Date().toISOString().slice(0, 10));
  const [description, setDescription] = useState('');
  const [counted, setCounted] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useSave(trpc.giving.createBatch, {
    errorTitle: 'Error',
    errorPrefix: 'Failed to start the batch',
    success: 'Batch started',
    invalidate: (utils) => utils.giving.batches.invalidate(),
    onSuccess: (b) => void navigate(`/giving/batches/${b.id}`),
  });
  return (
    <Modal opened onClose={onClose} title="New Batch" centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const cents = dollarsToCents(counted);
          if (cents === null) return setError('Enter the counted total, e.g. 175.50');
          create.mutate({ batchDate: date, description, expectedTotalCents: cents });
        }}
      >
        <Stack>
          <TextInput
            label="Date"
            type="date"
            withAsterisk
            value={date}
            onChange={(e) => setDate(e.currentTarget.value)}
          />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <TextInput
            label="Counted total (USD)"
            withAsterisk
            inputMode="decimal"
            value={counted}
            error={error}
            onChange={(e) => {
              setCounted(e.currentTarget.value);
              setError(null);
            }}
          />
          <FormActions onCancel={onClose} submit="Start Batch" saving={create.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}

/** Giving → Batches: cash and checks counted by date, each committed when its lines match the count. */
export function BatchesPage() {
  const batches = trpc.giving.batches.useQuery();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Giving"
        description="Funds donors give to, recurring gifts and the gifts received."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
            New Batch
          </Button>
        }
      />
      <GivingTabs />
      <Paper withBorder p="md">
        {batches.isLoading ? (
          <Skeleton height={120} />
        ) : batches.isError ? (
          <Alert color="red" title="Batches could not be loaded" />
        ) : (
          <DataTable
            label="Batches"
            rows={batches.data ?? []}
            rowKey={(b) => b.id}
            minWidth={560}
            empty={<Text c="dimmed">No batches yet. Start one for a Sunday's cash and checks.</Text>}
            columns={[
              {
                header: 'Batch',
                card: 'title',
                cell: (b) => (
                  <Link to={`/giving/batches/${b.id}`}>{b.description || `Batch of ${formatDate(b.batchDate)}`}</Link>
                ),
              },
              { header: 'Date', cell: (b) => formatDate(b.batchDate) },
              { header: 'Lines', cell: (b) => `${b.lineCount} · ${formatCents(b.linesTotalCents)}` },
              { header: 'Counted', cell: (b) => formatCents(b.expectedTotalCents) },
              {
                header: 'Status',
                cell: (b) => (
                  <Badge variant="light" color={b.status === 'committed' ? 'green' : 'yellow'}>
                    {b.status === 'committed' ? 'Committed' : 'Open'}
                  </Badge>
                ),
              },
            ]}
          />
        )}
      </Paper>
      {creating ? <NewBatchModal onClose={() => setCreating(false)} /> : null}
    </>
  );
}
