import { Anchor, Badge, Button, Paper, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconPackageExport } from '@tabler/icons-react';
import type { ChurchExport, ExportStatus } from '@lampstand/api/schemas/exports';
import { EXPORT_LINK_HOURS } from '@lampstand/api/schemas/exports';
import { trpc } from '../../lib/trpc';
import { useSave } from '../../lib/use-save';
import { useChurchTimeZone } from '../../lib/time-zone';
import { DataTable } from '../../ui/data-table';
import { formatDate, formatNumber, formatTime } from '../../ui/format';
import { statusColor, type StatusKind } from '../../ui/status-color';

/**
 * Settings → Export everything: one ZIP of every table the church keeps (CSV, with JSON for pages,
 * journeys and plans), its uploaded files and a README, made in the background and emailed as a
 * link that works for 24 hours. While one is being made the list asks again every 2 seconds.
 */
const STATUS: Record<ExportStatus, { label: string; kind: StatusKind }> = {
  queued: { label: 'Waiting to start', kind: 'waiting' },
  running: { label: 'Being made', kind: 'working' },
  ready: { label: 'Ready', kind: 'success' },
  failed: { label: 'Failed', kind: 'failure' },
  expired: { label: 'Link expired', kind: 'neutral' },
};

const POLL_MS = 2000;
const isWorking = (e: ChurchExport) => e.status === 'queued' || e.status === 'running';

function fileSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024 * 1024) return `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;
  return `${formatNumber(Math.round((bytes / (1024 * 1024)) * 10) / 10)} MB`;
}

export function ExportSection() {
  const timeZone = useChurchTimeZone();
  const list = trpc.exports.list.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.exports.some(isWorking) ? POLL_MS : false),
  });
  const create = useSave(trpc.exports.create, {
    success: ['Export started', 'We will email you a link when it is ready. You can also download it here.'],
    errorTitle: 'Failed to start the export',
    invalidate: (utils) => utils.exports.list.invalidate(),
  });
  const exports = list.data?.exports ?? [];
  const working = exports.some(isWorking);
  const when = (iso: string) => `${formatDate(iso, timeZone)} ${formatTime(iso, timeZone)}`;

  return (
    <Paper withBorder p="lg" maw={720} mt="lg" id="export">
      <Title order={2} size="h4" mb={4}>
        Export everything
      </Title>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Download one ZIP file with everything your church keeps in Lampstand: contacts, families, lists, giving,
          campaigns, landing pages, journeys, service plans and your uploaded images. Each table is a CSV file that
          opens in a spreadsheet, and a README explains every file. It is yours to keep, or to move to another system.
        </Text>
        <Text size="sm" c="dimmed">
          Making it takes a few minutes for a large church. We email you a link when it is ready; the link works for{' '}
          {EXPORT_LINK_HOURS} hours. Passwords and other secrets are never included.
        </Text>
        <div>
          <Button
            leftSection={<IconPackageExport size={18} />}
            loading={create.isPending}
            disabled={working}
            onClick={() => create.mutate(undefined)}
          >
            Export everything
          </Button>
          {working ? (
            <Text size="xs" c="dimmed" mt={4}>
              An export is being made. You can start another once it is done.
            </Text>
          ) : null}
        </div>
        {list.isLoading ? (
          <Skeleton h={80} />
        ) : exports.length > 0 ? (
          <DataTable
            label="Recent exports"
            rows={exports}
            rowKey={(e) => e.id}
            minWidth={480}
            actionsHeader="hidden"
            table={{ highlightOnHover: false, verticalSpacing: undefined }}
            columns={[
              { header: 'Started', card: 'title', cell: (e) => when(e.createdAt) },
              {
                header: 'Status',
                cell: (e) => (
                  // A width of its own: a squeezed column would cut the badge's word.
                  <Stack gap={4} miw={150}>
                    <Badge color={statusColor(STATUS[e.status].kind)} variant="light" style={{ overflow: 'visible' }}>
                      {STATUS[e.status].label}
                    </Badge>
                    {isWorking(e) ? (
                      <Progress value={e.progress} size="sm" aria-label={`Export progress: ${e.progress}%`} animated />
                    ) : null}
                  </Stack>
                ),
                note: (e) => (e.status === 'failed' && e.error ? e.error : undefined),
              },
              {
                header: 'Download',
                cell: (e) =>
                  e.status === 'ready' && e.downloadUrl ? (
                    <Stack gap={0}>
                      <Anchor href={e.downloadUrl} download size="sm">
                        <IconDownload size={14} style={{ verticalAlign: 'middle' }} /> Download ZIP (
                        {fileSize(e.fileSize)})
                      </Anchor>
                      {e.expiresAt ? (
                        <Text size="xs" c="dimmed">
                          Until {when(e.expiresAt)}
                        </Text>
                      ) : null}
                    </Stack>
                  ) : (
                    <Text size="sm" c="dimmed">
                      —
                    </Text>
                  ),
              },
            ]}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No exports yet.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
