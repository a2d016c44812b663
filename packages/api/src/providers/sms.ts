import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';

export interface SmsMessage {
  to: string;
  from: string;
  /** Sent through this Twilio Messaging Service instead of `from` (a church's own service). */
  messagingServiceSid?: string;
  body: string;
  /** Where the provider reports delivery (Twilio's StatusCallback). */
  statusCallback?: string;
  meta?: { userId?: number; campaignId?: number; deliveryId?: number };
}

export interface SmsTransport {
  readonly kind: 'twilio' | 'outbox';
  /** Resolves with the provider's message id once it accepted the message. */
  send(message: SmsMessage): Promise<{ providerMessageId: string }>;
}

class SmsProviderError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly code?: number,
  ) {
    super(message);
  }
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** Default https://api.twilio.com; tests point it at a local server speaking the same API. */
  apiBaseUrl: string;
}

/** Twilio's Messages API: POST /2010-04-01/Accounts/{Sid}/Messages.json, form-encoded, basic auth. */
export function createTwilioTransport(settings: TwilioSettings): SmsTransport {
  const url = `${settings.apiBaseUrl.replace(/\/$/, '')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    kind: 'twilio',
    async send(m) {
      const form = new URLSearchParams(
        m.messagingServiceSid
          ? { To: m.to, MessagingServiceSid: m.messagingServiceSid, Body: m.body }
          : { To: m.to, From: m.from, Body: m.body },
      );
      if (m.statusCallback) form.set('StatusCallback', m.statusCallback);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: form,
        });
      } catch (err) {
        throw new SmsProviderError(`Twilio unreachable: ${err instanceof Error ? err.message : String(err)}`, false);
      }
      const body = (await res.json().catch(() => ({}))) as { sid?: string; code?: number; message?: string };
      if (!res.ok || !body.sid) {
        // 4xx (bad number, opted-out recipient, ...) will not succeed on retry; 429 and 5xx may.
        const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
        throw new SmsProviderError(
          `Twilio ${res.status}${body.code ? ` (${body.code})` : ''}: ${body.message ?? res.statusText}`,
          permanent,
          body.code,
        );
      }
      return { providerMessageId: body.sid };
    },
  };
}

/** A church's own texting number (Settings → Texting), as its texts are sent. */
export interface ChurchSmsNumber {
  /** Its own number, or null when it sends through a Messaging Service. */
  fromNumber: string | null;
  messagingServiceSid: string | null;
  /** Its own Twilio account; null: the number is on the platform's account. */
  account: { accountSid: string; authToken: string } | null;
}

/**
 * Texts sent for a church (`meta.userId`) that has its own number go from it: through its own
 * Twilio account with its own credentials when it has them (a transport per account, made once),
 * else through `inner` (the platform's account) from its number. Other texts go through `inner`
 * unchanged. The SMS counterpart of email's `withChurchSenders`.
 */
export function withChurchNumbers(
  inner: SmsTransport,
  numberOf: (userId: number) => Promise<ChurchSmsNumber | null>,
  apiBaseUrl: string,
): SmsTransport {
  const accounts = new Map<string, SmsTransport>();
  return {
    kind: inner.kind,
    async send(m) {
      const own = m.meta?.userId === undefined ? null : await numberOf(m.meta.userId);
      if (!own) return inner.send(m);
      const message = {
        ...m,
        from: own.fromNumber ?? m.from,
        ...(own.messagingServiceSid ? { messagingServiceSid: own.messagingServiceSid } : {}),
      };
      if (!own.account) return inner.send(message);
      const { accountSid, authToken } = own.account;
      const key = `${accountSid}:${authToken}`;
      let transport = accounts.get(key);
      if (!transport) accounts.set(key, (transport = createTwilioTransport({ accountSid, authToken, apiBaseUrl })));
      return transport.send(message);
    },
  };
}

/** No Twilio configured: texts land in the church's outbox in the database. */
export function createSmsOutboxTransport(db: Db): SmsTransport {
  return {
    kind: 'outbox',
    async send(m) {
      const sid = `LOCAL${crypto.randomBytes(16).toString('hex')}`;
      await db
        .insertInto('outboxMessages')
        .values({
          userId: m.meta?.userId ?? null,
          channel: 'sms',
          campaignId: m.meta?.campaignId ?? null,
          deliveryId: m.meta?.deliveryId ?? null,
          toAddress: m.to,
          fromAddress: m.from,
          subject: null,
          html: null,
          text: m.body,
          headers: JSON.stringify({}),
          messageId: sid,
        })
        .execute();
      return { providerMessageId: sid };
    },
  };
}

/**
 * Twilio's request signature: HMAC-SHA1 (key: the auth token) of the full URL followed by every
 * POST parameter, sorted by name, as name+value; base64. Compared in constant time.
 */
export function twilioSignature(authToken: string, url: string, params: Record<string, string>): string {
  const data =
    url +
    Object.keys(params)
      .sort()
      .map((k) => k + params[k])
      .join('');
  return crypto.createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

export function validTwilioSignature(
  authToken: string,
  url: string,
  params: Record<string, string>,
  signature: string | undefined,
): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

/** What Twilio says of a church's own number or Messaging Service (Settings → Texting's check). */
export type TwilioNumberCheck = 'ok' | 'bad-credentials' | 'not-on-account' | 'unreachable';

/**
 * Asks Twilio, with the church's own credentials, whether the number is on that account
 * (GET …/IncomingPhoneNumbers.json?PhoneNumber=…) or the Messaging Service exists on it
 * (GET https://messaging.twilio.com/v1/Services/{sid}; under a test peer, the same base URL).
 */
export async function checkTwilioNumber(
  apiBaseUrl: string,
  credentials: { accountSid: string; authToken: string },
  target: { fromNumber: string } | { messagingServiceSid: string },
): Promise<TwilioNumberCheck> {
  const base = apiBaseUrl.replace(/\/$/, '');
  const url =
    'fromNumber' in target
      ? `${base}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}/IncomingPhoneNumbers.json?PhoneNumber=${encodeURIComponent(target.fromNumber)}`
      : `${base === 'https://api.twilio.com' ? 'https://messaging.twilio.com' : base}/v1/Services/${encodeURIComponent(target.messagingServiceSid)}`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: {
        authorization: `Basic ${Buffer.from(`${credentials.accountSid}:${credentials.authToken}`).toString('base64')}`,
      },
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    return 'unreachable';
  }
  if (res.status === 401 || res.status === 403) return 'bad-credentials';
  if (res.status === 404) return 'not-on-account';
  if (!res.ok) return 'unreachable';
  if (!('fromNumber' in target)) return 'ok';
  const body = (await res.json().catch(() => ({}))) as { incoming_phone_numbers?: { phone_number?: string }[] };
  return body.incoming_phone_numbers?.some((n) => n.phone_number === target.fromNumber) ? 'ok' : 'not-on-account';
}
