import { Alert, Badge, Button, Group, Image, Paper, Skeleton, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPlus, IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { errorMessage } from '../../lib/errors';
import { confirmDestructive } from '../../ui/confirm';
import { EmptyState } from '../../ui/empty-state';
import { formatDate, formatNumber } from '../../ui/format';
import { PageHeader } from '../../ui/page-header';
import { DataTable } from '../../ui/data-table';
import { QrCodeDialog } from './qr-code-dialog';
import { ScansDialog } from './scans-chart';
import { thumb, Destination, Actions } from './qr-code-actions';
import type { QrCode } from './qr-form-values';

export function QrCodesPage() {
  const codes = trpc.qrCodes.list.useQuery();
  const location = useLocation();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<QrCode | 'new' | null>(null);
  const [scansOf, setScansOf] = useState<QrCode | null>(null);
  // /qr-codes/new opens the create dialog (state adjusted while rendering, not in an effect).
  const onNewRoute = location.pathname === '/qr-codes/new';
  const [sawNewRoute, setSawNewRoute] = useState(false);
  if (onNewRoute !== sawNewRoute) {
    setSawNewRoute(onNewRoute);
    if (onNewRoute) setEditing('new');
  }
  const close = () => {
    setEditing(null);
    if (location.pathname !== '/qr-codes') void navigate('/qr-codes', { replace: true });
  };
  const del = useSave(trpc.qrCodes.delete, {
    success: 'QR code deleted successfully',
    errorTitle: 'Failed to delete QR code',
    invalidate: (utils) => utils.qrCodes.list.invalidate(),
  });
  const askDelete = (c: QrCode) =>
    confirmDestructive({
      title: `Delete ${c.name}?`,
      text: (
        <>
          This deletes the QR code and its {formatNumber(c.scans)} recorded {c.scans === 1 ? 'scan' : 'scans'}.
          {c.shortUrl ? ' Printed copies that use its short link will stop working.' : ''} This cannot be undone.
        </>
      ),
      confirm: 'Delete',
      onConfirm: () => del.mutate({ id: c.id }),
    });
  const rows = codes.data ?? [];

  return (
    <>
      <PageHeader
        title="QR Codes"
        description="QR codes and short links for print and screens."
        action={
          <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
            Create QR Code
          </Button>
        }
      />
      {editing ? (
        <QrCodeDialog
          key={editing === 'new' ? 'new' : editing.id}
          opened
          code={editing === 'new' ? undefined : editing}
          onClose={close}
        />
      ) : null}
      <ScansDialog code={scansOf} onClose={() => setScansOf(null)} />
      <Paper withBorder p="md">
        {codes.isLoading ? (
          <Stack>
            <Skeleton h={60} />
            <Skeleton h={60} />
            <Skeleton h={60} />
          </Stack>
        ) : codes.isError ? (
          <Alert color="red" title="Failed to fetch QR codes">
            <Group>
              <Text size="sm">{errorMessage(codes.error)}</Text>
              <Button size="xs" variant="light" onClick={() => void codes.refetch()}>
                Retry
              </Button>
            </Group>
          </Alert>
        ) : rows.length === 0 ? (
          <EmptyState
            icon={<IconQrcode size={24} />}
            title="No QR codes yet"
            description="Create a code for a bulletin, a banner or a screen, and see how often it is scanned."
            action={
              <Button leftSection={<IconPlus size={18} />} onClick={() => setEditing('new')}>
                Create QR Code
              </Button>
            }
          />
        ) : (
          <DataTable
            label="QR codes"
            rows={rows}
            rowKey={(c) => c.id}
            minWidth={700}
            stickyHeader
            actions={(c) => (
              <Actions c={c} onEdit={() => setEditing(c)} onDelete={() => askDelete(c)} onScans={() => setScansOf(c)} />
            )}
            columns={[
              {
                header: 'Preview',
                cell: (c) => <Image src={thumb(c)} alt={`QR code for ${c.name}`} w={56} h={56} fit="contain" />,
              },
              { header: 'Name', card: 'title', td: { fw: 500 }, cell: (c) => c.name },
              { header: 'URL', cell: (c) => <Destination c={c} /> },
              {
                header: 'Type',
                td: { style: { whiteSpace: 'nowrap' } },
                cell: (c) => (
                  <Badge
                    variant="light"
                    color={c.isShortUrl ? 'indigo' : 'gray'}
                    styles={{ root: { overflow: 'visible', maxWidth: 'none' }, label: { overflow: 'visible' } }}
                  >
                    {c.isShortUrl ? 'Short link' : 'Direct'}
                  </Badge>
                ),
              },
              { header: 'Created', td: { style: { whiteSpace: 'nowrap' } }, cell: (c) => formatDate(c.createdAt) },
              {
                header: 'Scans',
                cell: (c) => (
                  <UnstyledButton
                    onClick={() => setScansOf(c)}
                    aria-label={`${formatNumber(c.scans)} ${c.scans === 1 ? 'scan' : 'scans'} of ${c.name}`}
                  >
                    <Text fw={600} c="indigo.8" data-testid={`scans-${c.id}`}>
                      {formatNumber(c.scans)}
                    </Text>
                  </UnstyledButton>
                ),
              },
            ]}
          />
        )}
      </Paper>
    </>
  );
}
