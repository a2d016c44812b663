import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { labelsZpl } from '@lampstand/api/shared/checkin-labels';
import { trpc } from '../../lib/trpc';
import type { StationSelf } from './station-offline';

export function labelsPdfUrl(code: string, size: string): string {
  return `/api/check-in/labels?${new URLSearchParams({ securityCode: code, format: 'pdf', size })}`;
}

type PrintState = { kind: 'printing' } | { kind: 'printed' } | { kind: 'queued' | 'failed'; message: string };

/**
 * A station printing through the church's print bridge: the labels' ZPL goes to the bridge, which
 * answers printed, or queued when the printer does not answer (said here, with 'Print as PDF').
 */
async function printThroughBridge(url: string, secret: string | null, zpl: string): Promise<PrintState> {
  try {
    const res = await fetch(`${url.replace(/\/$/, '')}/print`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(secret ? { authorization: `Bearer ${secret}` } : {}) },
      body: JSON.stringify({ zpl }),
    });
    const body = (await res.json().catch(() => ({}))) as { status?: string; message?: string };
    if (res.status === 200) return { kind: 'printed' };
    if (res.status === 202)
      return { kind: 'queued', message: body.message ?? 'The printer did not answer: the labels are queued.' };
    if (res.status === 401) return { kind: 'failed', message: 'The print bridge refused this station’s secret.' };
    return { kind: 'failed', message: body.message ?? `The print bridge answered ${res.status}.` };
  } catch {
    return { kind: 'failed', message: 'The print bridge did not answer.' };
  }
}

/** After a check-in: the family's code, big, and its labels printed (bridge) or opened (PDF). */
export function CheckedIn({
  station,
  code,
  children,
  offline,
  onNext,
}: {
  station: StationSelf;
  code: string;
  children: { name: string; room: string; care: string | null }[];
  /** Checked in without the network: saved on the station, sent when it returns. */
  offline: boolean;
  onNext: () => void;
}) {
  const names = children.map((c) => c.name);
  const utils = trpc.useUtils();
  const [print, setPrint] = useState<PrintState | null>(null);
  const started = useRef(false);
  const pdf = labelsPdfUrl(code, station.labelSize);
  const bridge = station.printer === 'bridge' && station.printerBridgeUrl;
  useEffect(() => {
    if (!bridge || started.current) return;
    started.current = true;
    setPrint({ kind: 'printing' });
    // Offline, the labels are made here with the server's own ZPL builders.
    const date = station.today;
    const zpl = offline
      ? Promise.resolve(
          labelsZpl(
            { children: children.map((c) => ({ ...c, code, date })), pickup: { children: names, code, date } },
            station.labelSize,
          ),
        )
      : utils.checkin.labels
          .fetch({ securityCode: code, format: 'zpl', size: station.labelSize })
          .then((l) => l.text ?? '');
    void zpl
      .then((text) => printThroughBridge(station.printerBridgeUrl!, station.printerBridgeSecret, text))
      .then(setPrint, () => setPrint({ kind: 'failed', message: 'The labels could not be made.' }));
  }, [bridge, code, station, utils, offline, children, names]);
  return (
    <Paper withBorder p="lg">
      <Stack align="center" ta="center">
        <Text size="lg">Checked in: {names.join(', ')}</Text>
        <Text size="sm" c="dimmed">
          Pickup code
        </Text>
        <Text ff="monospace" fw={800} fz={56} lh={1} data-testid="security-code" style={{ letterSpacing: 6 }}>
          {code}
        </Text>
        {offline ? (
          <Alert color="yellow" title="Saved on this station" w="100%" ta="left">
            No network: this check-in is sent when it returns.{' '}
            {bridge ? '' : 'The labels’ PDF opens once the network is back.'}
          </Alert>
        ) : null}
        {print?.kind === 'printing' ? <Text>Printing labels…</Text> : null}
        {print?.kind === 'printed' ? <Text c="green.8">Labels printed.</Text> : null}
        {print?.kind === 'queued' || print?.kind === 'failed' ? (
          <Alert
            color={print.kind === 'queued' ? 'yellow' : 'red'}
            title={print.kind === 'queued' ? 'Labels queued' : 'Labels not printed'}
            w="100%"
            ta="left"
          >
            {print.message} Print as PDF now if the family is waiting.
          </Alert>
        ) : null}
        <Button
          component="a"
          href={pdf}
          target="_blank"
          rel="noopener"
          size="xl"
          fullWidth
          variant={bridge ? 'default' : 'filled'}
          leftSection={<IconPrinter size={22} aria-hidden />}
        >
          {bridge ? 'Print as PDF' : 'Open labels (PDF)'}
        </Button>
        <Button size="xl" fullWidth variant="light" onClick={onNext}>
          Next family
        </Button>
      </Stack>
    </Paper>
  );
}
