import { createVerify, timingSafeEqual } from 'node:crypto';
import type { Db } from '@lampstand/db';
import { outboundFetch } from '../../providers/outbound-http.js';
import { ourMessageIds, type BounceReport } from './reports.js';
import { recordBounce, type BounceOutcome } from './suppressions.js';

/**
 * Provider event webhooks: `POST /api/email/events/{provider}`. Amazon SES posts
 * through SNS (each message signed with the key of the certificate at its SigningCertURL, on an
 * AWS host); Postmark posts with the basic-auth credentials set in its webhook's URL. A verified
 * bounce or complaint is recorded by the same `recordBounce` the SMTP receiver uses, once per the
 * provider's event id. Anything unsigned or wrongly signed is refused and nothing is stored.
 */
export interface ProviderEventsConfig {
  /** SigningCertURL (and SubscribeURL) must start with one of these; default https://sns.<region>.amazonaws.com/. */
  snsCertUrlPrefixes?: string[];
  /** Let the certificate fetch reach loopback (tests: a local certificate server). */
  snsCertAllowLoopback?: boolean;
  /** Only these SNS topics are accepted (SES_SNS_TOPIC_ARNS); unset: SES refused (anyone can make an SNS topic). */
  sesTopicArns?: string[];
  /** Postmark's webhook basic auth (POSTMARK_WEBHOOK_USERNAME, POSTMARK_WEBHOOK_PASSWORD); unset: Postmark refused. */
  postmarkAuth?: { username: string; password: string };
}

export const EMAIL_EVENT_PROVIDERS = ['ses', 'postmark'] as const;
export type EmailEventProvider = (typeof EMAIL_EVENT_PROVIDERS)[number];

export type ProviderEventResult =
  | { status: 403; message: string }
  | { status: 400; message: string }
  | { status: 200; outcomes: BounceOutcome[]; confirmed?: boolean };

const refused = (message: string): ProviderEventResult => ({ status: 403, message });

export const SES_NOT_CONFIGURED = 'SES events are not accepted: SES_SNS_TOPIC_ARNS is not configured';

const AWS_SNS_HOST = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** The URL is on an allowed SNS host (https, or a configured prefix). */
function allowedSnsUrl(raw: unknown, config: ProviderEventsConfig): raw is string {
  if (typeof raw !== 'string') return false;
  if (config.snsCertUrlPrefixes?.length) return config.snsCertUrlPrefixes.some((p) => raw.startsWith(p));
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && AWS_SNS_HOST.test(url.hostname) && !url.username && !url.port;
  } catch {
    return false;
  }
}

/** Certificates by URL: SNS signs with a handful, fetched once per process. */
const certificates = new Map<string, Promise<string>>();

function certificate(url: string, config: ProviderEventsConfig): Promise<string> {
  let cert = certificates.get(url);
  if (!cert) {
    cert = outboundFetch(url, {
      reach: config.snsCertAllowLoopback ? 'loopback' : 'public',
      maxBytes: 64 * 1024,
      maxRedirects: 0,
      timeoutMs: 5000,
    }).then((res) => {
      const pem = res.body.toString('utf8');
      if (res.status !== 200 || !pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error('No certificate');
      return pem;
    });
    certificates.set(url, cert);
    cert.catch(() => certificates.delete(url));
  }
  return cert;
}

/** The string SNS signs: the message's fields in this order, each `Name\nvalue\n` (AWS SNS docs). */
export function snsStringToSign(m: Record<string, unknown>): string | null {
  const keys =
    m.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  let out = '';
  for (const k of keys) {
    const v = m[k];
    if (v === undefined || v === null) {
      if (k === 'Subject') continue;
      return null;
    }
    if (typeof v !== 'string') return null;
    out += `${k}\n${v}\n`;
  }
  return out;
}

async function verifySns(m: Record<string, unknown>, config: ProviderEventsConfig): Promise<boolean> {
  const toSign = snsStringToSign(m);
  if (!toSign || typeof m.Signature !== 'string') return false;
  const algorithm = m.SignatureVersion === '1' ? 'RSA-SHA1' : m.SignatureVersion === '2' ? 'RSA-SHA256' : null;
  if (!algorithm || !allowedSnsUrl(m.SigningCertURL, config)) return false;
  let pem: string;
  try {
    pem = await certificate(m.SigningCertURL, config);
  } catch {
    return false;
  }
  try {
    return createVerify(algorithm).update(toSign, 'utf8').verify(pem, m.Signature, 'base64');
  } catch {
    return false;
  }
}

type SesRecipient = { emailAddress?: string; status?: string; diagnosticCode?: string };

/** The reports of one SES notification (bounce or complaint; a delivery is none). */
export function sesReports(n: Record<string, unknown>): BounceReport[] {
  const type = (n.notificationType ?? n.eventType) as string | undefined;
  const mail = (n.mail ?? {}) as Record<string, unknown>;
  const messageIds = ourMessageIds(JSON.stringify([mail.headers ?? [], mail.commonHeaders ?? {}]));
  if (type === 'Bounce') {
    const b = (n.bounce ?? {}) as { bounceType?: string; bounceSubType?: string; bouncedRecipients?: SesRecipient[] };
    const hard = b.bounceType === 'Permanent';
    return (b.bouncedRecipients ?? []).slice(0, 50).map((r) => ({
      kind: hard ? 'hard' : 'soft',
      recipient: r.emailAddress ?? null,
      status: r.status ?? (hard ? '5.0.0' : '4.0.0'),
      detail: `${r.status ?? b.bounceType ?? 'Bounce'} ${r.diagnosticCode ?? b.bounceSubType ?? ''}`
        .trim()
        .slice(0, 500),
      messageIds,
    }));
  }
  if (type === 'Complaint') {
    const c = (n.complaint ?? {}) as {
      complainedRecipients?: SesRecipient[];
      complaintFeedbackType?: string;
      userAgent?: string;
    };
    return (c.complainedRecipients ?? []).slice(0, 50).map((r) => ({
      kind: 'complaint',
      recipient: r.emailAddress ?? null,
      status: null,
      detail: `Complaint (${c.complaintFeedbackType ?? 'abuse'})${c.userAgent ? ` from ${c.userAgent}` : ''}`.slice(
        0,
        500,
      ),
      messageIds,
    }));
  }
  return [];
}

/** Postmark's bounce types that are hard, and soft; others (auto-replies, subscriptions…) are no bounce. */
const POSTMARK_HARD = new Set(['HardBounce', 'BadEmailAddress', 'ManuallyDeactivated', 'Blocked']);
const POSTMARK_SOFT = new Set(['SoftBounce', 'Transient', 'DnsError']);

/** The report of one Postmark webhook (its Bounce or SpamComplaint record), or null for other records. */
export function postmarkReport(p: Record<string, unknown>): BounceReport | null {
  const metadata = (p.Metadata ?? {}) as Record<string, unknown>;
  const messageIds = ourMessageIds(JSON.stringify([metadata, p.Headers ?? []]));
  const recipient = typeof p.Email === 'string' ? p.Email : null;
  const detail = [p.Type, p.Description, p.Details]
    .filter((v) => typeof v === 'string' && v)
    .join(' ')
    .slice(0, 500);
  if (p.RecordType === 'SpamComplaint' || p.Type === 'SpamComplaint')
    return { kind: 'complaint', recipient, status: null, detail: `Complaint (${detail || 'abuse'})`, messageIds };
  if (p.RecordType !== 'Bounce' || typeof p.Type !== 'string') return null;
  if (POSTMARK_HARD.has(p.Type)) return { kind: 'hard', recipient, status: '5.0.0', detail, messageIds };
  if (POSTMARK_SOFT.has(p.Type)) return { kind: 'soft', recipient, status: '4.0.0', detail, messageIds };
  return null;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Basic auth as Postmark sends it (`https://user:pass@host/…` in the webhook's URL). */
export function postmarkAuthorized(header: string | undefined, config: ProviderEventsConfig): boolean {
  const auth = config.postmarkAuth;
  if (!auth || !header || !/^Basic\s+/i.test(header)) return false;
  const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i < 0) return false;
  // Both compared, always: no early answer that tells which was wrong.
  const user = sameSecret(decoded.slice(0, i), auth.username);
  const pass = sameSecret(decoded.slice(i + 1), auth.password);
  return user && pass;
}

function parseJson(body: unknown): Record<string, unknown> | null {
  if (body && typeof body === 'object' && !Buffer.isBuffer(body)) return body as Record<string, unknown>;
  const text = Buffer.isBuffer(body) ? body.toString('utf8') : typeof body === 'string' ? body : null;
  if (text === null) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** One webhook post of a provider, verified first: 403 (nothing stored) unless it is. */
export async function handleProviderEvent(
  db: Db,
  config: ProviderEventsConfig,
  input: { provider: EmailEventProvider; body: unknown; authorization?: string },
): Promise<ProviderEventResult> {
  if (input.provider === 'postmark') {
    if (!postmarkAuthorized(input.authorization, config)) return refused('Invalid Postmark credentials');
    const p = parseJson(input.body);
    if (!p) return { status: 400, message: 'The body must be a JSON object' };
    const report = postmarkReport(p);
    if (!report) return { status: 200, outcomes: [] };
    const id = [p.ID, p.MessageID].find((v) => typeof v === 'number' || typeof v === 'string');
    const outcome = await recordBounce(db, {
      report,
      ...(id !== undefined
        ? { providerEvent: { provider: 'postmark', eventId: `${String(p.RecordType)}:${String(id)}` } }
        : {}),
    });
    return { status: 200, outcomes: [outcome] };
  }

  // SNS signs every topic's messages, anyone's: a signature proves only that SNS sent it. Until the
  // church's topics are configured nothing is accepted (and no certificate is fetched).
  if (!config.sesTopicArns?.length) return refused(SES_NOT_CONFIGURED);
  const m = parseJson(input.body);
  if (!m || !(await verifySns(m, config))) return refused('Invalid SNS signature');
  if (!config.sesTopicArns.includes(String(m.TopicArn))) return refused('This SNS topic is not accepted here');
  if (m.Type === 'SubscriptionConfirmation') {
    // Confirming the subscription: visit its SubscribeURL (on the same allowed SNS host).
    if (!allowedSnsUrl(m.SubscribeURL, config)) return refused('Invalid SubscribeURL');
    await outboundFetch(m.SubscribeURL, {
      reach: config.snsCertAllowLoopback ? 'loopback' : 'public',
      maxRedirects: 0,
      timeoutMs: 5000,
    });
    return { status: 200, outcomes: [], confirmed: true };
  }
  if (m.Type !== 'Notification') return { status: 200, outcomes: [] };
  const notification = parseJson(m.Message);
  if (!notification) return { status: 400, message: 'The SNS message is not an SES notification' };
  const reports = sesReports(notification);
  const outcomes: BounceOutcome[] = [];
  for (const [i, report] of reports.entries()) {
    outcomes.push(
      await recordBounce(db, {
        report,
        providerEvent: { provider: 'ses', eventId: `${String(m.MessageId)}:${i}` },
      }),
    );
  }
  return { status: 200, outcomes };
}
