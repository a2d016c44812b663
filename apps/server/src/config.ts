import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  /** External PostgreSQL; unset means the embedded one under dataDir. */
  databaseUrl?: string;
  /**
   * Streaming replicas (`DATABASE_READ_URL`, comma-separated; issue 33 §5, docs/scaling.md): reads
   * that may be a second behind go there. Empty: everything uses DATABASE_URL.
   */
  databaseReadUrls: string[];
  /** 'transaction' behind PgBouncer in transaction mode (`DATABASE_POOLER`, docs/scaling.md). */
  databasePooler: 'session' | 'transaction';
  /** A session that wrote within this many seconds reads from the primary (`READ_YOUR_WRITES_SECONDS`, default 5). */
  readYourWritesSeconds: number;
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
  /** The sampled access log (`ACCESS_LOG_SAMPLE`, `ACCESS_LOG_SLOW_MS`; logger.ts). */
  accessLog: { sampleEvery: number; slowMs: number };
  /** Run background workers inside the web process (default true; `pnpm worker` runs them alone). */
  runWorkers: boolean;
  /**
   * The OS priority (`nice`, 0–19) a `pnpm worker` process takes at start (`WORKER_NICE`, default
   * 10): on a machine it shares with the API, a burst of sends yields the cores to people's requests.
   * Since email is written in one pass, 100,000 journey emails still go out in under 2 minutes at 10
   * (docs/benchmarks.md, 'Journeys'); 0 keeps the worker at the API's priority.
   */
  workerNice: number;
  /**
   * WORKER_CPU_PERCENT (1–100, default 70; 100 when NODE_ENV is test): background sending and the
   * journey runner slow down while the machine's cores are busier than this, leaving the rest to
   * people's requests (packages/api's delivery/pacer.ts). 100 turns the pacing off: a worker alone
   * on its machine never needs it.
   */
  workerCpuPercent: number;
  /** Row-level security (default on); `RLS=off` only in an emergency (docs/security.md). */
  rls: boolean;
  /** DB_POOL_MAX: connections per pool (the app has two: church and system); default 10. */
  dbPoolMax?: number;
  /** SMTP server for campaign email; unset: messages go to the local outbox in the database. */
  emailSmtpUrl?: string;
  emailFrom: string;
  emailRatePerSecond?: number;
  emailConcurrency: number;
  /** SMS_QUIET_HOURS (default on; off when NODE_ENV is test): texts that are not answers wait out 21:00–8:00. */
  smsQuietHours: boolean;
  /** EMAIL_WARMUP: a new church's first week of email limited to 50, 100, 200, … a day (default off). */
  emailWarmup: boolean;
  /** The bounce receiver's SMTP port (BOUNCE_SMTP_PORT); unset: no receiver. 0 picks a free port. */
  bounceSmtpPort?: number;
  /** The domain of campaign mail's VERP return path (BOUNCE_DOMAIN; default PUBLIC_URL's host). */
  bounceDomain?: string;
  /** What a church's own sending domain's SPF record includes (EMAIL_SPF_INCLUDE; default spf.<bounce domain>). */
  emailSpfInclude?: string;
  /** The DNS server a sending domain's Verify asks (DNS_SERVER, e.g. 127.0.0.1:5353); default the system's. */
  dnsServer?: string;
  /**
   * Provider event webhooks (POST /api/email/events/{provider}): SES_SNS_TOPIC_ARNS (comma-separated;
   * unset: any topic SNS signed), POSTMARK_WEBHOOK_USERNAME / POSTMARK_WEBHOOK_PASSWORD (unset: Postmark
   * refused); for tests, SNS_CERT_URL_PREFIXES (where SigningCertURL may point instead of AWS's SNS hosts)
   * and SNS_CERT_ALLOW_LOOPBACK.
   */
  emailEvents: {
    sesTopicArns?: string[];
    postmarkAuth?: { username: string; password: string };
    snsCertUrlPrefixes?: string[];
    snsCertAllowLoopback?: boolean;
  };
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
  /** The branded short domain of QR short links `/s/{code}` (default PUBLIC_URL). */
  shortUrlBase: string;
  /** Let QR logo URLs reach loopback addresses (tests only; private ranges stay refused). */
  qrLogoAllowLoopback: boolean;
  /** Milliseconds a short-link scan waits before it is written in a batch (default 1000). */
  qrScanFlushMs: number;
  /** Stripe: both set means real card payments; neither (outside production) means demo mode. */
  stripeSecretKey?: string;
  stripePublishableKey?: string;
  stripeWebhookSecret?: string;
  /** Another Stripe API host (a local peer); unset: api.stripe.com. */
  stripeApiBaseUrl?: string;
  /** STRIPE_CONNECT=on: each church connects its own Stripe account and is paid there. */
  stripeConnect: boolean;
  /** The platform's fee on each Connect donation, in percent (default 0). */
  platformFeePercent: number;
  /** The card fee a donor may cover on the giving page (GIVING_CARD_FEE_PERCENT, GIVING_CARD_FEE_FIXED_CENTS). */
  cardFee: { percentBasisPoints: number; fixedCents: number };
  /** Leaflet tile URL template for the Show Up map. */
  mapTileUrl?: string;
  mapTileAttribution?: string;
  /** Uploaded images go to this S3-compatible bucket when set; else a folder under dataDir. */
  s3Bucket?: string;
  s3Endpoint?: string;
  s3Region?: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
  /** Where browsers read the bucket (CDN or public bucket URL); unset: the app serves /uploads/. */
  s3PublicUrl?: string;
  /** Social-post webhooks may call loopback and private-network addresses (default false). */
  socialWebhookAllowPrivate: boolean;
  /**
   * Outgoing webhooks: plain http URLs allowed (development and tests only), how far they reach
   * (WEBHOOKS_ALLOW_LOOPBACK, WEBHOOKS_ALLOW_PRIVATE), tries in flight per worker process
   * (WEBHOOK_CONCURRENCY, default 64); for tests, the lease of a claimed delivery
   * (WEBHOOK_LEASE_SECONDS, default 60) and the retry waits (WEBHOOK_RETRY_DELAYS_MS, comma-separated).
   */
  webhookAllowHttp: boolean;
  webhookReach: 'public' | 'loopback' | 'private';
  webhookConcurrency: number;
  webhookLeaseSeconds?: number;
  webhookRetryDelaysMs?: number[];
  /** OpenAI (or any OpenAI-compatible server): unset key and base URL = AI copy disabled. */
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  openaiModel: string;
  /** Per request to the model (default 30 s). */
  openaiTimeoutMs: number;
  /** AI generations per church per hour (default 30). */
  aiGenerationsPerHour: number;
  /** AI generations from one address an hour, whatever the church (default 100). */
  aiGenerationsPerAddressPerHour: number;
  /** Show Up gifts started (and demo payments completed) from one address an hour (default 30). */
  donationsPerAddressPerHour: number;
  /** People a day the campaigns of a church with an unverified email reach (default 100). */
  unverifiedDailyRecipients: number;
  /** Milliseconds for a request body to arrive in full (default 30 s; then 408). */
  bodyTimeoutMs: number;
  /** Milliseconds for a whole request, headers and body (default 60 s). */
  requestTimeoutMs: number;
  /** Origins besides PUBLIC_URL's allowed to make cookie-authenticated writes (CSRF check). */
  allowedOrigins: string[];
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
    databaseReadUrls: env.DATABASE_URL
      ? (env.DATABASE_READ_URL ?? '')
          .split(',')
          .map((u) => u.trim())
          .filter(Boolean)
      : [],
    databasePooler: poolerFrom(env.DATABASE_POOLER),
    readYourWritesSeconds: intFrom(env.READ_YOUR_WRITES_SECONDS, 5, 'READ_YOUR_WRITES_SECONDS'),
    dataDir,
    embeddedPgPort: intFrom(env.EMBEDDED_PG_PORT, 54329, 'EMBEDDED_PG_PORT'),
    sessionSecret: env.SESSION_SECRET || undefined,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    webDist: path.resolve(repoRoot, env.WEB_DIST || 'apps/web/dist'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    accessLog: {
      sampleEvery: intFrom(env.ACCESS_LOG_SAMPLE, 100, 'ACCESS_LOG_SAMPLE'),
      slowMs: intFrom(env.ACCESS_LOG_SLOW_MS, 1000, 'ACCESS_LOG_SLOW_MS'),
    },
    runWorkers: env.RUN_WORKERS !== 'false' && env.RUN_WORKERS !== '0',
    workerNice: Math.min(19, intFrom(env.WORKER_NICE, 10, 'WORKER_NICE')),
    workerCpuPercent: Math.min(
      100,
      Math.max(1, intFrom(env.WORKER_CPU_PERCENT, env.NODE_ENV === 'test' ? 100 : 70, 'WORKER_CPU_PERCENT')),
    ),
    rls: env.RLS !== 'off',
    dbPoolMax: positiveOrUndefined(env.DB_POOL_MAX, 'DB_POOL_MAX'),
    emailSmtpUrl: env.EMAIL_SMTP_URL || undefined,
    emailFrom: env.EMAIL_FROM || 'Lampstand <no-reply@localhost>',
    emailRatePerSecond: positiveOrUndefined(env.EMAIL_RATE_PER_SECOND, 'EMAIL_RATE_PER_SECOND'),
    emailConcurrency: positiveOrUndefined(env.EMAIL_CONCURRENCY, 'EMAIL_CONCURRENCY') ?? 16,
    emailWarmup: isOn(env.EMAIL_WARMUP),
    smsQuietHours: env.SMS_QUIET_HOURS ? isOn(env.SMS_QUIET_HOURS) : env.NODE_ENV !== 'test',
    bounceSmtpPort: env.BOUNCE_SMTP_PORT ? Number(env.BOUNCE_SMTP_PORT) : undefined,
    bounceDomain: env.BOUNCE_DOMAIN || undefined,
    emailSpfInclude: env.EMAIL_SPF_INCLUDE || undefined,
    dnsServer: env.DNS_SERVER || undefined,
    emailEvents: {
      sesTopicArns: listFrom(env.SES_SNS_TOPIC_ARNS),
      postmarkAuth:
        env.POSTMARK_WEBHOOK_USERNAME && env.POSTMARK_WEBHOOK_PASSWORD
          ? { username: env.POSTMARK_WEBHOOK_USERNAME, password: env.POSTMARK_WEBHOOK_PASSWORD }
          : undefined,
      snsCertUrlPrefixes: listFrom(env.SNS_CERT_URL_PREFIXES),
      snsCertAllowLoopback: isOn(env.SNS_CERT_ALLOW_LOOPBACK),
    },
    twilioAccountSid: env.TWILIO_ACCOUNT_SID || undefined,
    twilioAuthToken: env.TWILIO_AUTH_TOKEN || undefined,
    twilioFromNumber: env.TWILIO_FROM_NUMBER || '+15005550006',
    twilioApiBaseUrl: env.TWILIO_API_BASE_URL || 'https://api.twilio.com',
    smsRatePerSecond: positiveOrUndefined(env.SMS_RATE_PER_SECOND, 'SMS_RATE_PER_SECOND'),
    smsConcurrency: positiveOrUndefined(env.SMS_CONCURRENCY, 'SMS_CONCURRENCY') ?? 16,
    deliveryClaimLeaseSeconds: positiveOrUndefined(env.DELIVERY_CLAIM_LEASE_SECONDS, 'DELIVERY_CLAIM_LEASE_SECONDS'),
    deliveryRetryBaseSeconds: positiveOrUndefined(env.DELIVERY_RETRY_BASE_SECONDS, 'DELIVERY_RETRY_BASE_SECONDS'),
    shortUrlBase: (env.SHORT_URL_BASE || env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    qrLogoAllowLoopback: env.QR_LOGO_ALLOW_LOOPBACK === 'true' || env.QR_LOGO_ALLOW_LOOPBACK === '1',
    qrScanFlushMs: positiveOrUndefined(env.QR_SCAN_FLUSH_MS, 'QR_SCAN_FLUSH_MS') ?? 1000,
    stripeSecretKey: env.STRIPE_SECRET_KEY || undefined,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY || undefined,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
    stripeApiBaseUrl: env.STRIPE_API_BASE_URL || undefined,
    stripeConnect: env.STRIPE_CONNECT === 'on' || env.STRIPE_CONNECT === 'true' || env.STRIPE_CONNECT === '1',
    platformFeePercent: percentFrom(env.PLATFORM_FEE_PERCENT),
    cardFee: cardFeeFrom(env.GIVING_CARD_FEE_PERCENT, env.GIVING_CARD_FEE_FIXED_CENTS),
    mapTileUrl: env.MAP_TILE_URL || undefined,
    mapTileAttribution: env.MAP_TILE_ATTRIBUTION || undefined,
    s3Bucket: env.S3_BUCKET || undefined,
    s3Endpoint: env.S3_ENDPOINT || undefined,
    s3Region: env.S3_REGION || undefined,
    s3AccessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    s3SecretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    s3PublicUrl: env.S3_PUBLIC_URL || undefined,
    socialWebhookAllowPrivate: env.SOCIAL_WEBHOOK_ALLOW_PRIVATE === 'true' || env.SOCIAL_WEBHOOK_ALLOW_PRIVATE === '1',
    webhookAllowHttp: ['development', 'test'].includes(env.NODE_ENV || 'development'),
    webhookReach: isOn(env.WEBHOOKS_ALLOW_PRIVATE)
      ? 'private'
      : isOn(env.WEBHOOKS_ALLOW_LOOPBACK)
        ? 'loopback'
        : 'public',
    webhookConcurrency: positiveOrUndefined(env.WEBHOOK_CONCURRENCY, 'WEBHOOK_CONCURRENCY') ?? 64,
    webhookLeaseSeconds: positiveOrUndefined(env.WEBHOOK_LEASE_SECONDS, 'WEBHOOK_LEASE_SECONDS'),
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS
      ? env.WEBHOOK_RETRY_DELAYS_MS.split(',').map((v) => positiveOrUndefined(v.trim(), 'WEBHOOK_RETRY_DELAYS_MS') ?? 0)
      : undefined,
    openaiApiKey: env.OPENAI_API_KEY || undefined,
    openaiBaseUrl: env.OPENAI_BASE_URL || undefined,
    openaiModel: env.OPENAI_MODEL || 'gpt-4o-mini',
    openaiTimeoutMs: positiveOrUndefined(env.OPENAI_TIMEOUT_MS, 'OPENAI_TIMEOUT_MS') ?? 30_000,
    aiGenerationsPerHour: positiveOrUndefined(env.AI_GENERATIONS_PER_HOUR, 'AI_GENERATIONS_PER_HOUR') ?? 30,
    aiGenerationsPerAddressPerHour:
      positiveOrUndefined(env.AI_GENERATIONS_PER_ADDRESS_PER_HOUR, 'AI_GENERATIONS_PER_ADDRESS_PER_HOUR') ?? 100,
    donationsPerAddressPerHour:
      positiveOrUndefined(env.DONATIONS_PER_ADDRESS_PER_HOUR, 'DONATIONS_PER_ADDRESS_PER_HOUR') ?? 30,
    unverifiedDailyRecipients:
      positiveOrUndefined(env.UNVERIFIED_DAILY_RECIPIENTS, 'UNVERIFIED_DAILY_RECIPIENTS') ?? 100,
    bodyTimeoutMs: positiveOrUndefined(env.BODY_TIMEOUT_MS, 'BODY_TIMEOUT_MS') ?? 30_000,
    requestTimeoutMs: positiveOrUndefined(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS') ?? 60_000,
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim().replace(/\/$/, ''))
      .filter(Boolean),
    cspStripe: env.CSP_STRIPE === 'true' || env.CSP_STRIPE === '1',
    registrationsPerHour: positiveOrUndefined(env.REGISTRATIONS_PER_HOUR, 'REGISTRATIONS_PER_HOUR') ?? 20,
    firstAccountIsAdmin: env.FIRST_ACCOUNT_ADMIN
      ? env.FIRST_ACCOUNT_ADMIN === 'true' || env.FIRST_ACCOUNT_ADMIN === '1'
      : !env.DATABASE_URL,
  };
}

const isOn = (v: string | undefined) => v === 'true' || v === '1';

function poolerFrom(value: string | undefined): 'session' | 'transaction' {
  if (!value || value === 'session') return 'session';
  if (value === 'transaction') return 'transaction';
  throw new Error(`DATABASE_POOLER must be 'session' or 'transaction', not ${JSON.stringify(value)}`);
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

function percentFrom(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 50) throw new Error(`PLATFORM_FEE_PERCENT must be 0 to 50, got '${value}'`);
  return n;
}

/** The card fee donors may cover: 2.9% + 30 cents unless the platform sets it. */
function cardFeeFrom(percent: string | undefined, fixed: string | undefined) {
  const p = percent === undefined || percent === '' ? 2.9 : Number(percent);
  if (!Number.isFinite(p) || p < 0 || p > 20)
    throw new Error(`GIVING_CARD_FEE_PERCENT must be 0 to 20, got '${percent}'`);
  const f = fixed === undefined || fixed === '' ? 30 : Number(fixed);
  if (!Number.isInteger(f) || f < 0 || f > 1000) {
    throw new Error(`GIVING_CARD_FEE_FIXED_CENTS must be a whole number 0 to 1000, got '${fixed}'`);
  }
  return { percentBasisPoints: Math.round(p * 100), fixedCents: f };
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

/** A comma-separated list; unset or empty: undefined. */
function listFrom(v: string | undefined): string[] | undefined {
  const items = (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}
