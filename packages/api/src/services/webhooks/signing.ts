import crypto from 'node:crypto';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` and the
 * base64 of its key bytes; a signature is `v1,` and the base64 HMAC-SHA256, under that key, of
 * `${webhook-id}.${webhook-timestamp}.${body}`. The `webhook-signature` header lists one per
 * secret, space-separated (the current one, and the previous one for 24 hours after a rotation).
 */

const PREFIX = 'whsec_';
/** Key bytes of a new secret (the specification asks for 24 to 64). */
const KEY_BYTES = 32;

export function newWebhookSecret(): string {
  return PREFIX + crypto.randomBytes(KEY_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** One `v1,<base64>` signature of a message. */
export function signWebhook(secret: string, msg: { id: string; timestamp: number; body: string }): string {
  const mac = crypto.createHmac('sha256', keyOf(secret)).update(`${msg.id}.${msg.timestamp}.${msg.body}`);
  return `v1,${mac.digest('base64')}`;
}

/** The headers of one try: the message id (the same on every try), now, and a signature per secret. */
export function webhookHeaders(
  secrets: readonly string[],
  msg: { id: string; timestamp: number; body: string },
): Record<string, string> {
  return {
    'webhook-id': msg.id,
    'webhook-timestamp': String(msg.timestamp),
    'webhook-signature': secrets.map((s) => signWebhook(s, msg)).join(' '),
  };
}

/**
 * What a receiver does: the timestamp within `toleranceSeconds` of now (replays), then any listed
 * `v1` signature equal, in constant time, to the one computed over the raw body.
 */
export function verifyWebhook(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: string,
  opts: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.id || !headers.signature || !Number.isInteger(ts)) return false;
  const now = Math.floor((opts.now ?? Date.now()) / 1000);
  if (Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(secret, { id: headers.id, timestamp: ts, body }).slice(3), 'base64');
  return headers.signature.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}
