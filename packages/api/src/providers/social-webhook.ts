import crypto from 'node:crypto';
import {
  OutboundError,
  UNREACHABLE_MESSAGE,
  outboundFetch,
  type OutboundReach,
  type OutboundResponse,
} from './outbound-http.js';

/** One publish request: where, with which secret, the JSON body and a key the receiver can dedupe on. */
export interface SocialPublishRequest {
  url: string;
  secret: string;
  /** The JSON body, exactly as signed. */
  body: string;
  /** The same for every try of one post at one time: a receiver that saw it already can answer 2xx and skip. */
  idempotencyKey: string;
}

/** Publishes one post; resolves once the receiver answered 2xx. */
export interface SocialPublisher {
  readonly kind: 'webhook';
  publish(req: SocialPublishRequest): Promise<{ responseId: string | null }>;
}

class SocialPublishError extends Error {
  constructor(
    message: string,
    /** Trying again will not help (a 4xx answer, a refused address). */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

const SIGNATURE_HEADER = 'x-lampstand-signature';
const TIMESTAMP_HEADER = 'x-lampstand-timestamp';

/** `sha256=` + hex HMAC-SHA256 of `${timestamp}.${body}` with the church's secret (as Stripe and Slack do). */
export function signSocialWebhook(secret: string, timestamp: number, body: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/**
 * What a receiver does: recompute the signature over the timestamp and the raw body, compare in
 * constant time, and refuse timestamps older than `toleranceSeconds` (replays).
 */
export function verifySocialWebhook(
  secret: string,
  headers: { signature?: string; timestamp?: string },
  body: string,
  opts: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts)) return false;
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  if (Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signSocialWebhook(secret, ts, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && crypto.timingSafeEqual(expected, given);
}

const TIMEOUT_MS = 15_000;
/** A receiver's answer is read up to this size (its id is all we keep). */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * The real publisher: an HTTPS (or HTTP) POST of the JSON body with the signature and timestamp
 * headers, through the guarded outbound client (`outboundFetch`): unless `reach` says otherwise,
 * only public addresses in every spelling, checked at connect time, so a church cannot make the
 * server call its own network (or a cloud metadata service). A failure is stored on the post as
 * the generic `UNREACHABLE_MESSAGE` (never socket errors or the receiver's status, which would
 * make it a port scanner); `log` gets the details.
 */
export function createWebhookPublisher(
  opts: {
    /** 'private' with SOCIAL_WEBHOOK_ALLOW_PRIVATE (a receiver on your own network, tests). */
    reach?: OutboundReach;
    log?: (msg: string, fields: Record<string, unknown>) => void;
  } = {},
): SocialPublisher {
  const log = opts.log ?? (() => {});
  return {
    kind: 'webhook',
    async publish(req) {
      const timestamp = Math.floor(Date.now() / 1000);
      let res: OutboundResponse;
      try {
        res = await outboundFetch(req.url, {
          method: 'POST',
          reach: opts.reach ?? 'public',
          timeoutMs: TIMEOUT_MS,
          maxBytes: MAX_RESPONSE_BYTES,
          body: req.body,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Lampstand-Webhook/1.0',
            [SIGNATURE_HEADER]: signSocialWebhook(req.secret, timestamp, req.body),
            [TIMESTAMP_HEADER]: String(timestamp),
            'x-lampstand-event': 'social_post.publish',
            'idempotency-key': req.idempotencyKey,
          },
        });
      } catch (err) {
        const e = err instanceof OutboundError ? err : new OutboundError('connect', String(err));
        log('social webhook unreachable', { failure: e.failure, detail: e.detail });
        // A refused or malformed address will not become allowed by trying again.
        throw new SocialPublishError(
          UNREACHABLE_MESSAGE,
          e.failure === 'forbidden-address' || e.failure === 'invalid-url',
        );
      }
      const status = res.status;
      if (status >= 200 && status < 300) {
        let responseId: string | null = null;
        try {
          const j = JSON.parse(res.body.toString('utf8')) as { id?: unknown };
          if (typeof j.id === 'string' || typeof j.id === 'number') responseId = String(j.id).slice(0, 200);
        } catch {
          // A receiver need not answer JSON.
        }
        return { responseId };
      }
      // 4xx will not succeed on retry, except timeouts, conflicts of the moment and throttling.
      const permanent = status >= 400 && status < 500 && ![408, 409, 425, 429].includes(status);
      // eslint-disable-next-line no-control-regex -- strip control characters from the receiver's reply
      const detail = res.body.toString('utf8').replace(/[\u0000-\u001F\u007F]+/g, ' ');
      log('social webhook answered an error', { status, detail: detail.trim().slice(0, 200) });
      throw new SocialPublishError(UNREACHABLE_MESSAGE, permanent);
    },
  };
}
