import nodemailer from 'nodemailer';
import type { Db } from '@lampstand/db';
import { addressOf, canComposeMime, composeMime } from './mime.js';

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
  /** Where replies go, when not to the From address. */
  replyTo?: string;
  /** Signs the message with the church's domain key (nodemailer's DKIM option). */
  dkim?: { domainName: string; keySelector: string; privateKey: string };
  /**
   * Sent on a church's behalf (its users.id): `withChurchSenders` sends it From the church's
   * verified domain, DKIM-signed, or with Reply-To the church while it has none.
   */
  onBehalfOf?: number;
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
      // Postmark hands X-PM-Metadata-* back in its bounce and complaint webhooks: our Message-ID
      // names the delivery there (SES quotes the Message-ID header itself).
      const headers = { ...m.headers, 'X-PM-Metadata-lampstand-message-id': m.messageId };
      const envelope = { from: m.returnPath ?? addressOf(m.from), to: m.to };
      const info = canComposeMime(m)
        ? // The common case (no attachment, ASCII addresses): the message written in one pass and
          // handed over as one buffer (mime.ts); nodemailer only talks SMTP and signs.
          await transporter.sendMail({
            raw: composeMime({ ...m, headers }),
            envelope,
            messageId: `<${m.messageId}>`,
            ...(m.dkim ? { dkim: m.dkim } : {}),
          })
        : await transporter.sendMail({
            from: m.from,
            to: m.to,
            subject: m.subject,
            html: m.html,
            text: m.text,
            headers,
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
            ...(m.replyTo ? { replyTo: m.replyTo } : {}),
            ...(m.dkim ? { dkim: m.dkim } : {}),
            ...(m.returnPath ? { envelope } : {}),
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
          headers: JSON.stringify(m.replyTo ? { ...m.headers, 'Reply-To': m.replyTo } : m.headers),
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

/**
 * Mail sent on a church's behalf (`onBehalfOf`), once the church's own domain is
 * verified it goes From the same mailbox at that domain (the display name kept), DKIM-signed with
 * the domain's key, its return path under the domain (bounces.<domain>, a CNAME to the bounce
 * domain); until then From stays the platform's address and Reply-To is the church's. Other
 * mail passes unchanged.
 */
export function withChurchSenders(
  inner: EmailTransport,
  senderOf: (userId: number) => Promise<{
    replyTo: string | null;
    domain: { name: string; selector: string; privateKey: string } | null;
  }>,
): EmailTransport {
  return {
    kind: inner.kind,
    async send(m) {
      if (m.onBehalfOf === undefined) return inner.send(m);
      const sender = await senderOf(m.onBehalfOf);
      if (!sender.domain) {
        return inner.send({ ...m, ...(sender.replyTo && !m.replyTo ? { replyTo: sender.replyTo } : {}) });
      }
      const { name, selector, privateKey } = sender.domain;
      const address = addressOf(m.from);
      const mailbox = `${address.split('@')[0]}@${name}`;
      return inner.send({
        ...m,
        from: m.from.includes('<') ? m.from.replace(/<[^>]+>/, `<${mailbox}>`) : mailbox,
        ...(sender.replyTo && !m.replyTo ? { replyTo: sender.replyTo } : {}),
        dkim: { domainName: name, keySelector: selector, privateKey },
        ...(m.returnPath ? { returnPath: m.returnPath.replace(/@.*$/, `@bounces.${name}`) } : {}),
      });
    },
    close: () => inner.close(),
  };
}
