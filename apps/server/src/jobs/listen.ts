import pg from 'pg';
import type { JobLog } from '../logger.js';

/**
 * One connection of the worker process that LISTENs on the channels its background work is woken
 * by (`onNotify` with the channel), and reconnects when lost. On every (re)connection each channel
 * is reported once, so the work looks for what came while nobody listened. No `url`: nobody
 * listens, and each channel is reported once now (the work polls).
 */
export async function listenTo(
  url: string | null,
  channels: readonly string[],
  onNotify: (channel: string) => void,
  log: JobLog,
): Promise<{ stop(): Promise<void> }> {
  let stopped = false;
  let client: pg.Client | null = null;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: url ?? undefined, application_name: 'lampstand-background' });
    c.on('notification', (n) => onNotify(n.channel));
    c.on('error', (err) => {
      log('background listener lost its connection (reconnecting)', { err });
      client = null;
      c.end().catch(() => {});
      if (!stopped) reconnect();
    });
    await c.connect();
    await c.query(channels.map((ch) => `listen ${ch}`).join('; '));
    client = c;
    for (const ch of channels) onNotify(ch);
  };
  const reconnect = (): void => {
    setTimeout(() => {
      if (!stopped) connect().catch(reconnect);
    }, 1000);
  };
  if (url && channels.length > 0) await connect();
  else for (const ch of channels) onNotify(ch);
  return {
    async stop() {
      stopped = true;
      await client?.end().catch(() => {});
    },
  };
}
