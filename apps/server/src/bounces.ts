import { SMTPServer } from 'smtp-server';
import {
  authenticatedFeedbackSender,
  parseReport,
  recordBounce,
  verpToken,
  type FeedbackLoopConfig,
} from '@lampstand/api/server';
import type { Db } from '@lampstand/db';

export interface BounceReceiver {
  port: number;
  close(): Promise<void>;
}

/** Largest report accepted (a DSN quotes at most the returned message's headers, usually). */
const MAX_REPORT_BYTES = 2 * 1024 * 1024;

/**
 * The bounce receiver: a small SMTP server (the `smtp-server` package) on its own
 * port (BOUNCE_SMTP_PORT) that mail systems send delivery status notifications (RFC 3464) and
 * complaint reports (ARF, RFC 5965) to. A DSN comes to the VERP return path of the message,
 * `bounces+<delivery token>@<bounce domain>`, which names the delivery; a complaint (sent to the
 * address registered with the mailbox provider's feedback loop) names it by the Message-ID it
 * quotes. Only those recipients are accepted; a report that names no delivery of ours is accepted
 * and dropped (refusing it would only bounce the bounce). A complaint counts only when a configured
 * feedback-loop sender authenticated it (DKIM or SPF, `authenticatedFeedbackSender`): anyone can
 * write an ARF report quoting a newsletter's Message-ID; an unauthenticated one is dropped.
 */
export async function startBounceReceiver(opts: {
  db: Db;
  port: number;
  host?: string;
  log?: (msg: string, fields?: Record<string, unknown>) => void;
  /** Who may send complaint reports (FEEDBACK_LOOP_SENDERS), and the DNS server to check them with. */
  feedbackLoop?: FeedbackLoopConfig;
}): Promise<BounceReceiver> {
  const log = opts.log ?? (() => {});
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: MAX_REPORT_BYTES,
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      if (verpToken(to) || /^(bounces|fbl|abuse|complaints)@/.test(to)) return callback();
      const err = Object.assign(new Error('No such mailbox here'), { responseCode: 550 });
      callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const report = parseReport(raw);
        const tokens = session.envelope.rcptTo.map((r) => verpToken(r.address)).filter((t): t is string => !!t);
        if (!report) return callback();
        void (async () => {
          if (report.kind === 'complaint') {
            const envelope = {
              ip: session.remoteAddress,
              helo: session.hostNameAppearsAs || session.clientHostname,
              sender: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            };
            const sender = await authenticatedFeedbackSender(raw, envelope, opts.feedbackLoop ?? { senders: [] });
            if (!sender) return log('complaint report not authenticated: ignored', { ip: envelope.ip });
          }
          const outcome = await recordBounce(opts.db, { token: tokens[0] ?? null, report });
          log('bounce report', { kind: report.kind, outcome });
        })()
          .then(() => callback())
          .catch((err: unknown) => {
            log('bounce report not recorded', { err });
            // 451: the sender tries again later.
            callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.server.address() as { port: number };
  return {
    port: address.port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
