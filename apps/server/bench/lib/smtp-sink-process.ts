/**
 * An SMTP sink in a process of its own (a bench's server under test does not share its event loop
 * with the receiving end, as a real provider would not): it counts each recipient's messages and
 * answers the parent's questions over IPC. Started by `startSinkProcess`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

interface Stats {
  /** Recipients starting with the prefix that got at least one message. */
  distinct: number;
  /** Of them, those that got more than one. */
  duplicates: number;
  accepted: number;
}

type Ask = { id: number; prefix: string };

export async function startSinkProcess() {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, SMTP_SINK_CHILD: '1' },
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`the SMTP sink exited (${code})`)));
  });
  let next = 0;
  const waiting = new Map<number, (s: Stats) => void>();
  child.on('message', (m) => {
    const r = m as { id?: number; stats?: Stats };
    if (r.id !== undefined && r.stats) waiting.get(r.id)?.(r.stats);
    if (r.id !== undefined) waiting.delete(r.id);
  });
  return {
    pid: child.pid!,
    url: `smtp://127.0.0.1:${port}?tls=off`,
    stats: (prefix: string) =>
      new Promise<Stats>((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        child.send({ id, prefix } satisfies Ask);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

if (process.env.SMTP_SINK_CHILD === '1' && process.send) {
  const recipients = new Map<string, number>();
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      recipients.set(address.address, (recipients.get(address.address) ?? 0) + 1);
      callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        accepted++;
        callback();
      });
    },
  });
  server.on('error', () => undefined);
  server.listen(0, '127.0.0.1', () => {
    process.send!({ port: (server.server.address() as { port: number }).port });
  });
  process.on('message', (m) => {
    const { id, prefix } = m as Ask;
    let distinct = 0;
    let duplicates = 0;
    for (const [to, n] of recipients) {
      if (!to.startsWith(prefix)) continue;
      distinct++;
      if (n > 1) duplicates++;
    }
    process.send!({ id, stats: { distinct, duplicates, accepted } satisfies Stats });
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
  process.on('disconnect', () => process.exit(0));
}
