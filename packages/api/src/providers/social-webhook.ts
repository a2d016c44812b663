import crypto from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

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

/** Loopback, private, link-local (cloud metadata), unique-local and unspecified addresses. */
function isPrivateAddress(ip: string): boolean {
  const v4 = net.isIPv4(ip) ? ip : ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : null;
  if (v4 && net.isIPv4(v4)) {
    const [a, b] = v4.split('.').map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  const s = ip.toLowerCase();
  return s === '::' || s === '::1' || s.startsWith('fc') || s.startsWith('fd') || s.startsWith('fe80');
}

const TIMEOUT_MS = 15_000;

/**
 * The real publisher: an HTTPS (or HTTP) POST of the JSON body with the signature and timestamp
 * headers. Unless `allowPrivateAddresses`, the address the name resolves to is checked at connect
 * time, so a church cannot make the server call its own network (or a cloud metadata service).
 */
export function createWebhookPublisher(opts: { allowPrivateAddresses?: boolean } = {}): SocialPublisher {
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: false }, (err, address, family) => {
      if (err) return callback(err, '', 0);
      if (!opts.allowPrivateAddresses && isPrivateAddress(String(address))) {
        return callback(
          Object.assign(new Error('Webhook address is on a private network'), { code: 'EPRIVATE' }),
          '',
          0,
        );
      }
      callback(null, String(address), family);
    });
  };
  return {
    kind: 'webhook',
    publish(req) {
      return new Promise((resolve, reject) => {
        let url: URL;
        try {
          url = new URL(req.url);
        } catch {
          return reject(new SocialPublishError('Webhook URL is not valid', true));
        }
        if (url.protocol !== 'https:' && url.protocol !== 'http:')
          return reject(new SocialPublishError('Webhook URL must start with http:// or https://', true));
        const host = url.hostname.replace(/^\[|\]$/g, '');
        if (!opts.allowPrivateAddresses && net.isIP(host) && isPrivateAddress(host))
          return reject(new SocialPublishError('Webhook address is on a private network', true));
        const timestamp = Math.floor(Date.now() / 1000);
        const mod = url.protocol === 'https:' ? https : http;
        const r = mod.request(
          url,
          {
            method: 'POST',
            lookup,
            timeout: TIMEOUT_MS,
            headers: {
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(req.body),
              'user-agent': 'Lampstand-Webhook/1.0',
              [SIGNATURE_HEADER]: signSocialWebhook(req.secret, timestamp, req.body),
              [TIMESTAMP_HEADER]: String(timestamp),
              'x-lampstand-event': 'social_post.publish',
              'idempotency-key': req.idempotencyKey,
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            let size = 0;
            res.on('data', (c: Buffer) => {
              if (size < 4096) chunks.push(c);
              size += c.length;
            });
            res.on('end', () => {
              const status = res.statusCode ?? 0;
              const text = Buffer.concat(chunks).toString('utf8');
              if (status >= 200 && status < 300) {
                let responseId: string | null = null;
                try {
                  const j = JSON.parse(text) as { id?: unknown };
                  if (typeof j.id === 'string' || typeof j.id === 'number') responseId = String(j.id).slice(0, 200);
                } catch {
                  // A receiver need not answer JSON.
                }
                return resolve({ responseId });
              }
              // 4xx will not succeed on retry, except timeouts, conflicts of the moment and throttling.
              const permanent = status >= 400 && status < 500 && ![408, 409, 425, 429].includes(status);
              const detail = text
                // eslint-disable-next-line no-control-regex -- strip control characters from the receiver's reply
                .replace(/[\u0000-\u001F\u007F]+/g, ' ')
                .trim()
                .slice(0, 200);
              reject(
                new SocialPublishError(
                  `Webhook answered ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}${detail ? `: ${detail}` : ''}`,
                  permanent,
                ),
              );
            });
            res.on('error', (err) => reject(new SocialPublishError(`Webhook failed: ${err.message}`, false)));
          },
        );
        r.on('timeout', () => r.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} seconds`)));
        r.on('error', (err: NodeJS.ErrnoException) =>
          reject(
            new SocialPublishError(
              err.code === 'EPRIVATE' ? err.message : `Webhook unreachable: ${err.message}`,
              err.code === 'EPRIVATE',
            ),
          ),
        );
        r.end(req.body);
      });
    },
  };
}
