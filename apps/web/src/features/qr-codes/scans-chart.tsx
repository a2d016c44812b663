import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Alert, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import type { RouterOutputs } from '@lampstand/api';
import { trpc } from '../../lib/trpc';
import { churchLocale, formatNumber } from '../../ui/format';

type QrCode = RouterOutputs['qrCodes']['list'][number];

/** Scans per day over the last 30 days (printed code and shared link), devices and referrers. */
export function ScansDialog({ code, onClose }: { code: QrCode | null; onClose: () => void }) {
  const stats = trpc.qrCodes.scans.useQuery({ id: code?.id ?? 0 }, { enabled: !!code });
  const days = (stats.data?.days ?? []).map((d) => ({
    ...d,
    label: new Date(`${d.date}T00:00:00Z`).toLocaleDateString(churchLocale(), {
      month: 'short',
      day: 'numeric',
      timeZone: 'UTC',
    }),
  }));
  return (
    <Modal opened={!!code} onClose={onClose} title={code ? `Scans of ${code.name}` : 'Scans'} size="lg">
      {stats.isLoading ? (
        <Skeleton h={220} />
      ) : stats.isError ? (
        <Alert color="red" title="Scans could not be loaded">
          Please try again later.
        </Alert>
      ) : (
        <Stack>
          <Text size="sm">
            {formatNumber(stats.data?.total ?? 0)} {stats.data?.total === 1 ? 'scan' : 'scans'} in all. Last 30 days, by
            day (UTC):
          </Text>
          <BarChart
            h={220}
            data={days}
            dataKey="label"
            type="stacked"
            withLegend
            aria-label="Scans per day over the last 30 days"
            series={[
              { name: 'qr', label: 'Printed code', color: 'indigo.6' },
              { name: 'link', label: 'Shared link', color: 'teal.6' },
            ]}
            tickLine="y"
            xAxisProps={{ interval: 6 }}
            yAxisProps={{ allowDecimals: false }}
          />
          {stats.data ? (
            <Group gap="lg">
              <Text size="sm">Phones: {formatNumber(stats.data.devices.mobile)}</Text>
              <Text size="sm">Tablets: {formatNumber(stats.data.devices.tablet)}</Text>
              <Text size="sm">Computers: {formatNumber(stats.data.devices.desktop)}</Text>
              <Text size="sm">Other: {formatNumber(stats.data.devices.other)}</Text>
            </Group>
          ) : null}
          {stats.data && stats.data.referrers.length > 0 ? (
            <Text size="sm">
              Shared from: {stats.data.referrers.map((r) => `${r.host} (${formatNumber(r.scans)})`).join(', ')}
            </Text>
          ) : null}
        </Stack>
      )}
    </Modal>
  );
}
