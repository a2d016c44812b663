import { z } from 'zod';

/**
 * The environment the server reads, one schema: each variable with its own type,
 * range and message. A bad value is refused at start with the variable named and what it should
 * be (`PORT must be a port number (0 to 65535), got 'abc'`); every bad variable is listed at once.
 * Unset and empty are the same: the default applies. config.ts turns the result into `Config`.
 */

const unset = (v: unknown) => v === undefined || v === '';

/** A whole number from min to max; unset: `fallback`. */
function int(min: number, max: number, fallback: number): z.ZodType<number, string | undefined>;
function int(min: number, max: number): z.ZodType<number | undefined, string | undefined>;
function int(min: number, max: number, fallback?: number): z.ZodType<number | undefined, string | undefined> {
  const what =
    max === 65535 && min === 0
      ? 'must be a port number (0 to 65535)'
      : `must be a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
  return z
    .string()
    .optional()
    .refine((v) => unset(v) || (/^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max), what)
    .transform((v) => (unset(v) ? fallback : Number(v)));
}

/** A number above 0 up to max, or off ('0', 'off' or unset). */
function positiveOrOff(max: number, whole = true) {
  const what = `must be a ${whole ? 'whole' : ''}${whole ? ' ' : ''}number above 0 up to ${max.toLocaleString('en-US')} (or 0 or 'off')`;
  return z
    .string()
    .optional()
    .refine((v) => {
      if (unset(v) || v === '0' || v === 'off') return true;
      const n = Number(v);
      return Number.isFinite(n) && n > 0 && n <= max && (!whole || Number.isInteger(n));
    }, what)
    .transform((v) => (unset(v) || v === '0' || v === 'off' ? undefined : Number(v)));
}

/** true/false (also 1/0, on/off, yes/no); unset: `fallback`. */
function bool(fallback: boolean) {
  return z
    .string()
    .optional()
    .refine((v) => unset(v) || /^(true|false|1|0|on|off|yes|no)$/i.test(v.trim()), "must be 'true' or 'false'")
    .transform((v) => (unset(v) ? fallback : /^(true|1|on|yes)$/i.test(v.trim())));
}

/** 'true' or 'false'; unset: undefined (the caller's default, which may depend on NODE_ENV). */
const optionalBool = z
  .string()
  .optional()
  .refine((v) => unset(v) || /^(true|false|1|0|on|off|yes|no)$/i.test(v.trim()), "must be 'true' or 'false'")
  .transform((v) => (unset(v) ? undefined : /^(true|1|on|yes)$/i.test(v.trim())));

/** A comma-separated list (empty items dropped); unset: []. */
const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** An absolute URL with one of `protocols`. */
function url(protocols: string[]) {
  return z
    .string()
    .optional()
    .refine(
      (v) => {
        if (unset(v)) return true;
        try {
          return protocols.includes(new URL(v).protocol.replace(/:$/, ''));
        } catch {
          return false;
        }
      },
      `must be a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    )
    .transform((v) => (unset(v) ? undefined : v));
}

const text = z
  .string()
  .optional()
  .transform((v) => (unset(v) ? undefined : v));

function oneOf<T extends string>(values: readonly T[], fallback: T) {
  return z
    .string()
    .optional()
    .refine((v) => unset(v) || (values as readonly string[]).includes(v), `must be one of ${values.join(', ')}`)
    .transform((v) => (unset(v) ? fallback : (v as T)));
}

/** A percentage from min to max (decimals allowed); unset: fallback. */
function percent(min: number, max: number, fallback: number) {
  return z
    .string()
    .optional()
    .refine(
      (v) => unset(v) || (Number.isFinite(Number(v)) && Number(v) >= min && Number(v) <= max),
      `must be ${min} to ${max}`,
    )
    .transform((v) => (unset(v) ? fallback : Number(v)));
}

/** A phone number in E.164 (+ and 8 to 15 digits). */
const e164 = z
  .string()
  .optional()
  .refine((v) => unset(v) || /^\+[1-9]\d{7,14}$/.test(v), 'must be a phone number in E.164 form, like +15551234567')
  .transform((v) => (unset(v) ? undefined : v));

const HOUR = 3600;
const DAY = 24 * HOUR;

export const envSchema = z.object({
  NODE_ENV: z
    .string()
    .optional()
    .transform((v) => (unset(v) ? 'development' : v)),
  PORT: int(0, 65535, 3000),
  HOST: text,
  PUBLIC_URL: url(['http', 'https']),
  DATABASE_URL: url(['postgres', 'postgresql']),
  DATABASE_OWNER_URL: url(['postgres', 'postgresql']),
  DATABASE_READ_URL: list,
  DATABASE_POOLER: oneOf(['session', 'transaction'] as const, 'session'),
  DATABASE_LISTEN_URL: url(['postgres', 'postgresql']),
  READ_YOUR_WRITES_SECONDS: int(0, DAY, 5),
  DATA_DIR: text,
  EMBEDDED_PG_PORT: int(1, 65535, 54329),
  SESSION_SECRET: z
    .string()
    .optional()
    .refine((v) => unset(v) || v.length >= 32, 'must be at least 32 characters long')
    .transform((v) => (unset(v) ? undefined : v)),
  SECRETS_KEY: text,
  SECRETS_KEY_PREVIOUS: list,
  WEB_DIST: text,
  TRUST_PROXY: text,
  LOG_LEVEL: z
    .string()
    .optional()
    .refine(
      (v) => unset(v) || ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(v),
      'must be one of fatal, error, warn, info, debug, trace, silent',
    )
    .transform((v) => (unset(v) ? undefined : v)),
  ACCESS_LOG_SAMPLE: int(1, 1_000_000, 100),
  ACCESS_LOG_SLOW_MS: int(0, 600_000, 1000),
  RUN_WORKERS: bool(true),
  WORKER_NICE: int(0, 19, 10),
  WORKER_CPU_PERCENT: int(1, 100),
  RLS: oneOf(['on', 'off'] as const, 'on'),
  DB_POOL_MAX: positiveOrOff(1000),
  EMAIL_SMTP_URL: url(['smtp', 'smtps']),
  EMAIL_FROM: text,
  EMAIL_RATE_PER_SECOND: positiveOrOff(100_000, false),
  EMAIL_CONCURRENCY: positiveOrOff(1000),
  EMAIL_WARMUP: bool(false),
  SMS_QUIET_HOURS: optionalBool,
  BOUNCE_SMTP_PORT: int(0, 65535),
  BOUNCE_DOMAIN: text,
  EMAIL_SPF_INCLUDE: text,
  DNS_SERVER: text,
  FEEDBACK_LOOP_SENDERS: list,
  SES_SNS_TOPIC_ARNS: list,
  POSTMARK_WEBHOOK_USERNAME: text,
  POSTMARK_WEBHOOK_PASSWORD: text,
  SNS_CERT_URL_PREFIXES: list,
  SNS_CERT_ALLOW_LOOPBACK: bool(false),
  TWILIO_ACCOUNT_SID: text,
  TWILIO_AUTH_TOKEN: text,
  TWILIO_FROM_NUMBER: e164,
  TWILIO_API_BASE_URL: url(['http', 'https']),
  SMS_RATE_PER_SECOND: positiveOrOff(100_000, false),
  SMS_CONCURRENCY: positiveOrOff(1000),
  DELIVERY_CLAIM_LEASE_SECONDS: positiveOrOff(DAY),
  DELIVERY_RETRY_BASE_SECONDS: positiveOrOff(DAY),
  SHORT_URL_BASE: url(['http', 'https']),
  QR_LOGO_ALLOW_LOOPBACK: bool(false),
  QR_SCAN_FLUSH_MS: positiveOrOff(60_000),
  STRIPE_SECRET_KEY: text,
  STRIPE_PUBLISHABLE_KEY: text,
  STRIPE_WEBHOOK_SECRET: text,
  STRIPE_API_BASE_URL: url(['http', 'https']),
  STRIPE_CONNECT: bool(false),
  PLATFORM_FEE_PERCENT: percent(0, 50, 0),
  GIVING_CARD_FEE_PERCENT: percent(0, 20, 2.9),
  GIVING_CARD_FEE_FIXED_CENTS: int(0, 1000, 30),
  MAP_TILE_URL: text,
  MAP_TILE_ATTRIBUTION: text,
  S3_BUCKET: text,
  S3_ENDPOINT: url(['http', 'https']),
  S3_REGION: text,
  S3_ACCESS_KEY_ID: text,
  S3_SECRET_ACCESS_KEY: text,
  S3_PUBLIC_URL: url(['http', 'https']),
  SOCIAL_WEBHOOK_ALLOW_PRIVATE: bool(false),
  WEBHOOKS_ALLOW_PRIVATE: bool(false),
  WEBHOOKS_ALLOW_LOOPBACK: bool(false),
  WEBHOOK_CONCURRENCY: positiveOrOff(10_000),
  WEBHOOK_LEASE_SECONDS: positiveOrOff(DAY),
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .optional()
    .refine(
      (v) => unset(v) || v.split(',').every((d) => /^\d+$/.test(d.trim()) && Number(d) <= 7 * DAY * 1000),
      'must be waits in milliseconds, comma-separated (each at most a week)',
    )
    .transform((v) => (unset(v) ? undefined : v.split(',').map((d) => Number(d.trim())))),
  OPENAI_API_KEY: text,
  OPENAI_BASE_URL: url(['http', 'https']),
  OPENAI_MODEL: text,
  OPENAI_TIMEOUT_MS: positiveOrOff(600_000),
  AI_GENERATIONS_PER_HOUR: positiveOrOff(1_000_000),
  AI_GENERATIONS_PER_ADDRESS_PER_HOUR: positiveOrOff(1_000_000),
  DONATIONS_PER_ADDRESS_PER_HOUR: positiveOrOff(1_000_000),
  UNVERIFIED_DAILY_RECIPIENTS: positiveOrOff(10_000_000),
  BODY_TIMEOUT_MS: positiveOrOff(3_600_000),
  REQUEST_TIMEOUT_MS: positiveOrOff(3_600_000),
  ALLOWED_ORIGINS: list,
  CSP_STRIPE: bool(false),
  REGISTRATIONS_PER_HOUR: positiveOrOff(1_000_000),
  FIRST_ACCOUNT_ADMIN: z
    .string()
    .optional()
    .refine((v) => unset(v) || /^(true|false|1|0)$/.test(v), "must be 'true' or 'false'")
    .transform((v) => (unset(v) ? undefined : v === 'true' || v === '1')),
});

export type Env = z.output<typeof envSchema>;

/** The environment checked against the schema; throws one error naming every bad variable. */
export function parseEnv(env: NodeJS.ProcessEnv): Env {
  const result = envSchema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name} ${issue.message}, got '${env[name] ?? ''}'`;
  });
  throw new Error(lines.join('; '));
}
