import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  /** External PostgreSQL; unset means the embedded one under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  embeddedPgPort: number;
  /** At least 32 characters; unset means one kept in the database (shared by every instance). */
  sessionSecret?: string;
  /** Where people reach the app (links in emails, QR codes). */
  publicUrl: string;
  /** The built web app (apps/web/dist); served when it exists. */
  webDist: string;
  /** TRUST_PROXY: how many proxy hops, or which proxy addresses/CIDRs, to trust; false: none. Never all. */
  trustProxy: number | string[] | false;
  logLevel: string;
  /** Run background workers inside the web process (default true; `pnpm worker` runs them alone). */
  runWorkers: boolean;
  /** SMTP server for campaign email; unset: messages go to the local outbox in the database. */
  emailSmtpUrl?: string;
  emailFrom: string;
  emailRatePerSecond?: number;
  emailConcurrency: number;
  twilioAccountSid?: string;
  twilioAuthToken?: string;
  twilioFromNumber: string;
  twilioApiBaseUrl: string;
  smsRatePerSecond?: number;
  smsConcurrency: number;
  /** Seconds before a dead worker's claimed deliveries are retried (default 120). */
  deliveryClaimLeaseSeconds?: number;
  /** First retry delay in seconds, doubling (default 30). */
  deliveryRetryBaseSeconds?: number;
  /** Milliseconds for a request body to arrive in full (default 30 s; then 408). */
  bodyTimeoutMs: number;
  /** Milliseconds for a whole request, headers and body (default 60 s). */
  requestTimeoutMs: number;
  /** Origins besides PUBLIC_URL's allowed to make cookie-authenticated writes (CSRF check). */
  allowedOrigins: string[];
  /** Leaflet tile URL template; its host is allowed in the Content-Security-Policy's img-src. */
  mapTileUrl?: string;
  /** Allow Stripe.js in the Content-Security-Policy (js.stripe.com, api.stripe.com, hooks.stripe.com). */
  cspStripe: boolean;
  /** Accounts one address may register in an hour (REGISTRATIONS_PER_HOUR, default 20). */
  registrationsPerHour: number;
  /** FIRST_ACCOUNT_ADMIN: the first registration becomes admin (default: only on the embedded database). */
  firstAccountIsAdmin: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env.PORT, 3000, 'PORT');
  const dataDir = path.resolve(repoRoot, env.DATA_DIR || './.data');
  if (env.SESSION_SECRET && env.SESSION_SECRET.length < 32) {
    throw new Error('SESSION_SECRET must be at least 32 characters long');
  }
  return {
    nodeEnv: env.NODE_ENV || 'development',
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    embeddedPgPort: intFrom(env.EMBEDDED_PG_PORT, 54329, 'EMBEDDED_PG_PORT'),
    sessionSecret: env.SESSION_SECRET || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    webDist: path.resolve(repoRoot, env.WEB_DIST || 'apps/web/dist'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    runWorkers: env.RUN_WORKERS !== 'false' && env.RUN_WORKERS !== '0',
    emailSmtpUrl: env.EMAIL_SMTP_URL || undefined,
    emailFrom: env.EMAIL_FROM || 'Lampstand <no-reply@localhost>',
    emailRatePerSecond: positiveOrUndefined(env.EMAIL_RATE_PER_SECOND, 'EMAIL_RATE_PER_SECOND'),
    emailConcurrency: positiveOrUndefined(env.EMAIL_CONCURRENCY, 'EMAIL_CONCURRENCY') ?? 8,
    twilioAccountSid: env.TWILIO_ACCOUNT_SID || undefined,
    twilioAuthToken: env.TWILIO_AUTH_TOKEN || undefined,
    twilioFromNumber: env.TWILIO_FROM_NUMBER || '+15005550006',
    twilioApiBaseUrl: env.TWILIO_API_BASE_URL || 'https://api.twilio.com',
    smsRatePerSecond: positiveOrUndefined(env.SMS_RATE_PER_SECOND, 'SMS_RATE_PER_SECOND'),
    smsConcurrency: positiveOrUndefined(env.SMS_CONCURRENCY, 'SMS_CONCURRENCY') ?? 4,
    deliveryClaimLeaseSeconds: positiveOrUndefined(env.DELIVERY_CLAIM_LEASE_SECONDS, 'DELIVERY_CLAIM_LEASE_SECONDS'),
    deliveryRetryBaseSeconds: positiveOrUndefined(env.DELIVERY_RETRY_BASE_SECONDS, 'DELIVERY_RETRY_BASE_SECONDS'),
    bodyTimeoutMs: positiveOrUndefined(env.BODY_TIMEOUT_MS, 'BODY_TIMEOUT_MS') ?? 30_000,
    requestTimeoutMs: positiveOrUndefined(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS') ?? 60_000,
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    mapTileUrl: env.MAP_TILE_URL || undefined,
    cspStripe: env.CSP_STRIPE === 'true' || env.CSP_STRIPE === '1',
    registrationsPerHour: positiveOrUndefined(env.REGISTRATIONS_PER_HOUR, 'REGISTRATIONS_PER_HOUR') ?? 20,
    firstAccountIsAdmin: env.FIRST_ACCOUNT_ADMIN
      ? env.FIRST_ACCOUNT_ADMIN === 'true' || env.FIRST_ACCOUNT_ADMIN === '1'
      : !env.DATABASE_URL,
  };
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} must be a port number, got '${value}'`);
  return n;
}

function positiveOrUndefined(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '' || value === '0' || value === 'off') return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got '${value}'`);
  return n;
}

/** A hop count ('1'; 'true' means one hop) or a list of proxy addresses/CIDRs; never trust-all. */
function trustProxyFrom(value: string | undefined): number | string[] | false {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (
    list.some(
      (a) => !/^[0-9a-f:.]+(\/\d{1,3})?$/i.test(a) && a !== 'loopback' && a !== 'uniquelocal' && a !== 'linklocal',
    )
  )
    throw new Error(`TRUST_PROXY must be a hop count or proxy addresses, got '${v}'`);
  return list;
}
