import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';

export interface SmsMessage {
  to: string;
  from: string;
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
      const form = new URLSearchParams({ To: m.to, From: m.from, Body: m.body });
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
