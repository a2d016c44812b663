import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  envelopeTo: string[];
  envelopeFrom: string;
  raw: string;
  parsed: ParsedMail;
  header(name: string): string | undefined;
}

export interface SmtpSink {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Recipients (lower-case) by how many messages each received. */
  counts(): Map<string, number>;
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  /** Hold every reply to DATA from now on (messages stay unaccepted) until resume(). */
  pause(): void;
  resume(): void;
  /** Hold every reply to RCPT TO from now on (a refusal too) until resumeRecipients(). */
  pauseRecipients(): void;
  resumeRecipients(): void;
  close(): Promise<void>;
}

/** A server's refusal of a recipient: an SMTP reply code (4xx for now, 5xx for good) and its text. */
export type SmtpRefusal = { code: number; message: string };

/**
 * Refusals for delivery-failure tests: bad@example.org is refused for good (550), and
 * flaky@example.org once for now (451), then accepted. `refused(to)` counts the refusals of `to`.
 */
export function refuseBadAndFlakyOnce() {
  const refusals = new Map<string, number>();
  const refused = (to: string) => refusals.get(to) ?? 0;
  const refusal = (to: string): SmtpRefusal | undefined => {
    if (to === 'bad@example.org') return { code: 550, message: 'No such user here' };
    if (to === 'flaky@example.org' && refused(to) < 1) return { code: 451, message: 'Try again later' };
    return undefined;
  };
  return {
    rejectTo: (to: string) => {
      const answer = refusal(to);
      if (answer) refusals.set(to, refused(to) + 1);
      return answer;
    },
    refused,
  };
}

/**
 * A real SMTP server on loopback (the `smtp-server` package). A message counts as received only
 * when the server answers 250; if the client is gone before that (killed mid-transaction), the
 * message is discarded, as a real server would not have accepted it.
 */
export async function startSmtpSink(
  opts: {
    replyDelayMs?: number;
    pauseAfter?: number;
    /** Accepted but not recorded (e.g. /^office_/: the verification email each registered church gets). */
    ignoreTo?: RegExp;
    rejectTo?: (to: string) => SmtpRefusal | undefined;
  } = {},
): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  let gate: Promise<void> | null = null;
  let openGate: () => void = () => {};
  const pause = () => {
    if (!gate) gate = new Promise<void>((r) => (openGate = r));
  };
  let rcptGate: Promise<void> | null = null;
  let openRcptGate: () => void = () => {};
  const closed = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // When the file ends, its senders' pooled connections may still be open: close them at once
    // (smtp-server waits 30 s for them by default, and the file's end waited with it).
    closeTimeout: 100,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      if (rcptGate) {
        void rcptGate.then(() => this.onRcptTo!(address, _session, callback));
        return;
      }
      const reject = opts.rejectTo?.(address.address);
      if (reject) {
        const err = new Error(reject.message) as Error & { responseCode: number };
        err.responseCode = reject.code;
        return callback(err);
      }
      callback();
    },
    onClose(session) {
      closed.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on(
        'end',
        () =>
          void (async () => {
            const raw = Buffer.concat(chunks).toString('utf8');
            if (opts.ignoreTo && session.envelope.rcptTo.some((r) => opts.ignoreTo!.test(r.address))) {
              return callback();
            }
            const parsed = await simpleParser(raw);
            if (opts.replyDelayMs) await new Promise((r) => setTimeout(r, opts.replyDelayMs));
            while (gate) await gate;
            // From here to callback() nothing awaits: accepting is one step.
            if (closed.has(session.id)) return callback(new Error('client went away'));
            messages.push({
              envelopeTo: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              raw,
              parsed,
              // The header as sent (mailparser turns some, like List-*, into objects).
              header: (name) => {
                const line = parsed.headerLines.find((h) => h.key === name.toLowerCase())?.line;
                return line === undefined
                  ? undefined
                  : line
                      .slice(line.indexOf(':') + 1)
                      .replace(/\r?\n\s+/g, ' ')
                      .trim();
              },
            });
            callback();
            if (opts.pauseAfter && messages.length === opts.pauseAfter) pause();
          })(),
      );
    },
  });
  server.on('error', () => {}); // a client killed mid-transaction resets its connection
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}?tls=off`,
    port,
    messages,
    counts() {
      const m = new Map<string, number>();
      for (const msg of messages) for (const to of msg.envelopeTo) m.set(to, (m.get(to) ?? 0) + 1);
      return m;
    },
    async waitFor(n, timeoutMs = 20_000) {
      const start = Date.now();
      while (messages.length < n) {
        if (Date.now() - start > timeoutMs) throw new Error(`expected ${n} messages, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    pause,
    resume() {
      const g = gate;
      gate = null;
      if (g) openGate();
    },
    pauseRecipients() {
      rcptGate ??= new Promise<void>((r) => (openRcptGate = r));
    },
    resumeRecipients() {
      const g = rcptGate;
      rcptGate = null;
      if (g) openRcptGate();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
