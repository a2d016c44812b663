import nodemailer from 'nodemailer';
import type { Db } from '@lampstand/db';

export interface EmailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers, e.g. List-Unsubscribe. */
  headers: Record<string, string>;
  /** The envelope sender (VERP): where bounces go, naming the delivery. Default: the From address. */
  returnPath?: string;
  /** Our own Message-ID (without angle brackets), stable per delivery. */
  messageId: string;
  /** Files sent with the message (a giving statement's PDF). */
  attachments?: EmailAttachment[];
  /** For the local outbox: whose message and which campaign/delivery. */
  meta?: { userId?: number; campaignId?: number; deliveryId?: number };
}

export interface EmailAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
}

export interface EmailTransport {
  readonly kind: 'smtp' | 'outbox';
  /** Resolves once the server accepted the message (SMTP 250); rejects with the reason otherwise. */
  send(message: EmailMessage): Promise<{ providerMessageId: string }>;
  close(): Promise<void>;
}

/** Real delivery over SMTP (EMAIL_SMTP_URL, e.g. smtps://user:pass@smtp.example.org:465), pooled. */
export function createSmtpTransport(smtpUrl: string, opts: { maxConnections?: number } = {}): EmailTransport {
  const url = new URL(smtpUrl);
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === 'smtps:' ? 465 : 587)),
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    pool: true,
    maxConnections: opts.maxConnections ?? 5,
    maxMessages: Infinity,
    // Plain SMTP on loopback (tests, local relays) may not offer STARTTLS.
    ignoreTLS: url.searchParams.get('tls') === 'off',
    tls: url.searchParams.get('tls') === 'insecure' ? { rejectUnauthorized: false } : undefined,
  });
  return {
    kind: 'smtp',
    async send(m) {
      const info = await transporter.sendMail({
        from: m.from,
        to: m.to,
        subject: m.subject,
        html: m.html,
        text: m.text,
        headers: m.headers,
        messageId: `<${m.messageId}>`,
        ...(m.attachments?.length
          ? {
              attachments: m.attachments.map((a) => ({
                filename: a.fileName,
                contentType: a.contentType,
                content: a.content,
              })),
            }
          : {}),
        ...(m.returnPath ? { envelope: { from: m.returnPath, to: m.to } } : {}),
      });
      if (info.rejected && info.rejected.length > 0) throw new Error(`Rejected by the server: ${info.response}`);
      return { providerMessageId: info.messageId ?? `<${m.messageId}>` };
    },
    async close() {
      transporter.close();
    },
  };
}

/** No SMTP configured: every message lands in the church's outbox in the database. */
export function createOutboxTransport(db: Db): EmailTransport {
  return {
    kind: 'outbox',
    async send(m) {
      await db
        .insertInto('outboxMessages')
        .values({
          userId: m.meta?.userId ?? null,
          channel: 'email',
          campaignId: m.meta?.campaignId ?? null,
          deliveryId: m.meta?.deliveryId ?? null,
          toAddress: m.to,
          fromAddress: m.from,
          subject: m.subject,
          html: m.html,
          text: m.text,
          headers: JSON.stringify(m.headers),
          messageId: m.messageId,
          // The outbox keeps what was attached, not the bytes.
          attachments: JSON.stringify(
            (m.attachments ?? []).map((a) => ({
              fileName: a.fileName,
              contentType: a.contentType,
              size: a.content.length,
            })),
          ),
        })
        .execute();
      return { providerMessageId: `<${m.messageId}>` };
    },
    async close() {},
  };
}
