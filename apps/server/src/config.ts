import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keyringFrom, secretKeyInDataDir, TEST_SECRETS_KEY, useKeyring } from '@lampstand/db';
import { parseEnv } from './env.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  nodeEnv: string;
  port: number;
  host: string;
  /** External PostgreSQL; unset means the embedded one under dataDir. */
  databaseUrl?: string;
  /**
   * The tables' owner (`DATABASE_OWNER_URL`), for migrations only; the app then logs in with
   * `DATABASE_URL` as its own role (docs/security.md). Unset: `DATABASE_URL` is the owner.
   */
  databaseOwnerUrl?: string;
  /**
   * Streaming replicas (`DATABASE_READ_URL`, comma-separated; docs/scaling.md): reads
   * that may be a second behind go there. Empty: everything uses DATABASE_URL.
   */
  databaseReadUrls: string[];
  /** 'transaction' behind PgBouncer in transaction mode (`DATABASE_POOLER`, docs/scaling.md). */
  databasePooler: 'session' | 'transaction';
  /**
   * A direct connection to the primary for the background workers' LISTEN (`DATABASE_LISTEN_URL`):
   * notifications do not pass through a pooler in transaction mode. Unset: `DATABASE_URL` in
   * session mode; behind a transaction pooler, no LISTEN (the workers poll).
   */
  databaseListenUrl?: string;
  /** A session that wrote within this many seconds reads from the primary (`READ_YOUR_WRITES_SECONDS`, default 5). */
  readYourWritesSeconds: number;
  dataDir: string;
  embeddedPgPort: number;
  /** At least 32 characters; unset means one kept in the database (shared by every instance). */
  sessionSecret?: string;
  /**
   * The key stored secrets are sealed with (`SECRETS_KEY`, 32 bytes as base64 or hex):
   * unset, the embedded default and development keep one in `DATA_DIR/secrets-key`; production with
   * `DATABASE_URL` must set it. `SECRETS_KEY_PREVIOUS` (comma-separated) still opens values sealed
   * before a rotation; they are re-sealed under the new key at start.
   */
  secretsKey?: string;
  secretsKeyPrevious: string[];
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
   * FEEDBACK_LOOP_SENDERS (comma-separated domains): the mailbox providers' feedback loops whose
   * complaint reports the bounce receiver believes, when DKIM or SPF authenticates them; none: every
   * complaint by mail is ignored.
   */
  feedbackLoopSenders: string[];
  /**
   * Provider event webhooks (POST /api/email/events/{provider}): SES_SNS_TOPIC_ARNS (comma-separated;
   * unset: SES refused), POSTMARK_WEBHOOK_USERNAME / POSTMARK_WEBHOOK_PASSWORD (unset: Postmark
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

/**
 * Where the background workers LISTEN: a session of its own, so never through a pooler in
 * transaction mode (a notification would reach whichever server connection listened, long since
 * someone else's). `DATABASE_LISTEN_URL`, else the app's own connection in session mode, else none
 * (the workers poll).
 */
export function listenUrlOf(config: Config, databaseUrl: string): string | null {
  return config.databaseListenUrl ?? (config.databasePooler === 'transaction' ? null : databaseUrl);
}

export function loadConfig(raw: NodeJS.ProcessEnv = process.env): Config {
  const env = parseEnv(raw);
  const test = env.NODE_ENV === 'test';
  const port = env.PORT;
  const dataDir = path.resolve(repoRoot, env.DATA_DIR || './.data');
  const secretsKey = env.SECRETS_KEY ?? (test ? TEST_SECRETS_KEY : undefined);
  if (!secretsKey && env.DATABASE_URL && env.NODE_ENV === 'production') {
    throw new Error(
      'SECRETS_KEY must be set in production with DATABASE_URL: 32 random bytes as base64 (openssl rand -base64 32), the same for every instance',
    );
  }
  if (secretsKey) keyringFrom(secretsKey, env.SECRETS_KEY_PREVIOUS); // refused at start when malformed
  if (env.TWILIO_ACCOUNT_SID && !env.TWILIO_FROM_NUMBER) {
    throw new Error('TWILIO_FROM_NUMBER must be set with TWILIO_ACCOUNT_SID: the number texts are sent from');
  }
  return {
    nodeEnv: env.NODE_ENV,
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL,
    databaseOwnerUrl: env.DATABASE_URL ? env.DATABASE_OWNER_URL : undefined,
    databaseReadUrls: env.DATABASE_URL ? env.DATABASE_READ_URL : [],
    databasePooler: env.DATABASE_POOLER,
    databaseListenUrl: env.DATABASE_URL ? env.DATABASE_LISTEN_URL : undefined,
    readYourWritesSeconds: env.READ_YOUR_WRITES_SECONDS,
    dataDir,
    embeddedPgPort: env.EMBEDDED_PG_PORT,
    sessionSecret: env.SESSION_SECRET,
    secretsKey,
    secretsKeyPrevious: env.SECRETS_KEY_PREVIOUS,
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    webDist: path.resolve(repoRoot, env.WEB_DIST || 'apps/web/dist'),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL ?? (test ? 'silent' : 'info'),
    accessLog: { sampleEvery: env.ACCESS_LOG_SAMPLE, slowMs: env.ACCESS_LOG_SLOW_MS },
    runWorkers: env.RUN_WORKERS,
    workerNice: env.WORKER_NICE,
    workerCpuPercent: env.WORKER_CPU_PERCENT ?? (test ? 100 : 70),
    rls: env.RLS === 'on',
    dbPoolMax: env.DB_POOL_MAX,
    emailSmtpUrl: env.EMAIL_SMTP_URL,
    emailFrom: env.EMAIL_FROM || 'Lampstand <no-reply@localhost>',
    emailRatePerSecond: env.EMAIL_RATE_PER_SECOND,
    emailConcurrency: env.EMAIL_CONCURRENCY ?? 16,
    emailWarmup: env.EMAIL_WARMUP,
    smsQuietHours: env.SMS_QUIET_HOURS ?? !test,
    bounceSmtpPort: env.BOUNCE_SMTP_PORT,
    bounceDomain: env.BOUNCE_DOMAIN,
    emailSpfInclude: env.EMAIL_SPF_INCLUDE,
    dnsServer: env.DNS_SERVER,
    feedbackLoopSenders: env.FEEDBACK_LOOP_SENDERS,
    emailEvents: {
      sesTopicArns: env.SES_SNS_TOPIC_ARNS.length ? env.SES_SNS_TOPIC_ARNS : undefined,
      postmarkAuth:
        env.POSTMARK_WEBHOOK_USERNAME && env.POSTMARK_WEBHOOK_PASSWORD
          ? { username: env.POSTMARK_WEBHOOK_USERNAME, password: env.POSTMARK_WEBHOOK_PASSWORD }
          : undefined,
      snsCertUrlPrefixes: env.SNS_CERT_URL_PREFIXES.length ? env.SNS_CERT_URL_PREFIXES : undefined,
      snsCertAllowLoopback: env.SNS_CERT_ALLOW_LOOPBACK,
    },
    twilioAccountSid: env.TWILIO_ACCOUNT_SID,
    twilioAuthToken: env.TWILIO_AUTH_TOKEN,
    // Without Twilio, texts go to the local outbox, from no number.
    twilioFromNumber: env.TWILIO_FROM_NUMBER ?? '',
    twilioApiBaseUrl: env.TWILIO_API_BASE_URL || 'https://api.twilio.com',
    smsRatePerSecond: env.SMS_RATE_PER_SECOND,
    smsConcurrency: env.SMS_CONCURRENCY ?? 16,
    deliveryClaimLeaseSeconds: env.DELIVERY_CLAIM_LEASE_SECONDS,
    deliveryRetryBaseSeconds: env.DELIVERY_RETRY_BASE_SECONDS,
    shortUrlBase: (env.SHORT_URL_BASE || env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    qrLogoAllowLoopback: env.QR_LOGO_ALLOW_LOOPBACK,
    qrScanFlushMs: env.QR_SCAN_FLUSH_MS ?? 1000,
    stripeSecretKey: env.STRIPE_SECRET_KEY,
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY,
    stripeWebhookSecret: env.STRIPE_WEBHOOK_SECRET,
    stripeApiBaseUrl: env.STRIPE_API_BASE_URL,
    stripeConnect: env.STRIPE_CONNECT,
    platformFeePercent: env.PLATFORM_FEE_PERCENT,
    cardFee: {
      percentBasisPoints: Math.round(env.GIVING_CARD_FEE_PERCENT * 100),
      fixedCents: env.GIVING_CARD_FEE_FIXED_CENTS,
    },
    mapTileUrl: env.MAP_TILE_URL,
    mapTileAttribution: env.MAP_TILE_ATTRIBUTION,
    s3Bucket: env.S3_BUCKET,
    s3Endpoint: env.S3_ENDPOINT,
    s3Region: env.S3_REGION,
    s3AccessKeyId: env.S3_ACCESS_KEY_ID,
    s3SecretAccessKey: env.S3_SECRET_ACCESS_KEY,
    s3PublicUrl: env.S3_PUBLIC_URL,
    socialWebhookAllowPrivate: env.SOCIAL_WEBHOOK_ALLOW_PRIVATE,
    webhookAllowHttp: ['development', 'test'].includes(env.NODE_ENV),
    webhookReach: env.WEBHOOKS_ALLOW_PRIVATE ? 'private' : env.WEBHOOKS_ALLOW_LOOPBACK ? 'loopback' : 'public',
    webhookConcurrency: env.WEBHOOK_CONCURRENCY ?? 64,
    webhookLeaseSeconds: env.WEBHOOK_LEASE_SECONDS,
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS,
    openaiApiKey: env.OPENAI_API_KEY,
    openaiBaseUrl: env.OPENAI_BASE_URL,
    openaiModel: env.OPENAI_MODEL || 'gpt-4o-mini',
    openaiTimeoutMs: env.OPENAI_TIMEOUT_MS ?? 30_000,
    aiGenerationsPerHour: env.AI_GENERATIONS_PER_HOUR ?? 30,
    aiGenerationsPerAddressPerHour: env.AI_GENERATIONS_PER_ADDRESS_PER_HOUR ?? 100,
    donationsPerAddressPerHour: env.DONATIONS_PER_ADDRESS_PER_HOUR ?? 30,
    unverifiedDailyRecipients: env.UNVERIFIED_DAILY_RECIPIENTS ?? 100,
    bodyTimeoutMs: env.BODY_TIMEOUT_MS ?? 30_000,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS ?? 60_000,
    allowedOrigins: env.ALLOWED_ORIGINS.map((o) => o.replace(/\/$/, '')),
    cspStripe: env.CSP_STRIPE,
    registrationsPerHour: env.REGISTRATIONS_PER_HOUR ?? 20,
    firstAccountIsAdmin: env.FIRST_ACCOUNT_ADMIN ?? !env.DATABASE_URL,
  };
}

/** Make the configured keys this process's keyring (the server, worker and CLIs, at start). */
export function installKeyring(config: Pick<Config, 'secretsKey' | 'secretsKeyPrevious' | 'dataDir'>): void {
  useKeyring(keyringFrom(config.secretsKey ?? secretKeyInDataDir(config.dataDir), config.secretsKeyPrevious));
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
