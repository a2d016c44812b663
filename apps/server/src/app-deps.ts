import type { JobLog } from './logger.js';
import { ReadRouting } from './read-routing.js';
import path from 'node:path';
import {
  createLocalStorage,
  createS3Storage,
  type FileStorage,
  type AiProvider,
  aiProviderFor,
  VisitorHasher,
  VisitRecorder,
  createOutboxTransport,
  withChurchSenders,
  churchSender,
  createSmsOutboxTransport,
  createSmtpTransport,
  createTwilioTransport,
  withChurchNumbers,
  churchSmsNumber,
  type SmsTransport,
  defaultDeliveryConfig,
  Pacer,
  type DeliveryConfig,
  type EmailTransport,
  type JobQueue,
  type QrSettings,
  createDemoPayments,
  createDisabledPayments,
  createStripePayments,
  DEFAULT_MAP_ATTRIBUTION,
  DEFAULT_MAP_TILE_URL,
  type ShowUpServices,
  type AccountPolicy,
  type PublicLimits,
} from '@lampstand/api/server';
import { getOrCreateSetting, randomSecret, type Db } from '@lampstand/db';
import { installKeyring, listenUrlOf, type Config } from './config.js';
import { startJobs, type JobRunner } from './jobs/runner.js';
import { PublicPageCache } from './public/page-cache.js';
import { PreviewThread } from './public/imports-preview-pool.js';

/** Everything the procedures and jobs use, chosen by configuration. */
export interface AppDeps {
  db: Db;
  jobs: JobQueue;
  email: EmailTransport;
  sms: SmsTransport;
  delivery: DeliveryConfig;
  qr: QrSettings;
  showUp: ShowUpServices;
  /** Uploaded files: S3_BUCKET when set, else DATA_DIR/uploads. */
  storage: FileStorage;
  /** The model for AI copy; null without OPENAI_API_KEY / OPENAI_BASE_URL. */
  ai: AiProvider | null;
  aiGenerationsPerHour: number;
  limits: PublicLimits;
  /** Public landing pages: rendered copies, visitor hashes and batched visit writes. */
  pages: { cache: PublicPageCache; hasher: VisitorHasher; visits: VisitRecorder };
  /** Who becomes an administrator, and registration limits. */
  accounts: AccountPolicy;
  /** How provider event webhooks are verified (POST /api/email/events/{provider}). */
  emailEvents: Config['emailEvents'];
  /** Which reads may go to a streaming replica (`DATABASE_READ_URL`), and read-your-writes. */
  reads: ReadRouting;
  /** Move-in uploads, read in a worker thread of their own (public/imports-preview-pool.ts). */
  previews: PreviewThread;
}

/** QR codes: the short-link domain and the logo fetch guard. */
export function qrSettingsFor(config: Config): QrSettings {
  return {
    publicUrl: config.publicUrl,
    shortUrlBase: config.shortUrlBase,
    logo: { allowLoopback: config.qrLogoAllowLoopback },
  };
}

export interface AppRuntime {
  deps: AppDeps;
  /** The job queue, and the background work of a process that works (jobs/runner.ts). */
  runner: JobRunner;
  close(): Promise<void>;
}

export async function deliveryConfigFor(
  config: Config,
  db: Db,
  overrides: Partial<DeliveryConfig> = {},
): Promise<DeliveryConfig> {
  return {
    ...defaultDeliveryConfig,
    publicUrl: config.publicUrl,
    trackingSecret: await getOrCreateSetting(db, 'tracking_secret', () => randomSecret()),
    emailFrom: config.emailFrom,
    emailRatePerSecond: config.emailRatePerSecond,
    emailConcurrency: config.emailConcurrency,
    emailWarmup: config.emailWarmup,
    smsQuietHours: config.smsQuietHours,
    smsFromNumber: config.twilioFromNumber,
    smsRatePerSecond: config.smsRatePerSecond,
    smsConcurrency: config.smsConcurrency,
    twilioAuthToken: config.twilioAccountSid ? config.twilioAuthToken : undefined,
    twilioApiBaseUrl: config.twilioApiBaseUrl,
    ...(config.deliveryClaimLeaseSeconds ? { claimLeaseSeconds: config.deliveryClaimLeaseSeconds } : {}),
    ...(config.deliveryRetryBaseSeconds ? { retryBaseSeconds: config.deliveryRetryBaseSeconds } : {}),
    socialWebhookAllowPrivate: config.socialWebhookAllowPrivate,
    webhooks: { allowHttp: config.webhookAllowHttp, reach: config.webhookReach },
    unverifiedDailyRecipients: config.unverifiedDailyRecipients,
    ...(config.bounceDomain ? { bounceDomain: config.bounceDomain } : {}),
    ...(config.emailSpfInclude ? { spfInclude: config.emailSpfInclude } : {}),
    ...(config.dnsServer ? { dnsServer: config.dnsServer } : {}),
    ...overrides,
  };
}

/**
 * The email transport: SMTP when EMAIL_SMTP_URL is set, else the local outbox. One pooled
 * connection per message in flight (EMAIL_CONCURRENCY, per process), so no message waits in
 * nodemailer's queue after its rate slot was taken.
 */
export function emailTransportFor(config: Config, db: Db): EmailTransport {
  const transport = config.emailSmtpUrl
    ? createSmtpTransport(config.emailSmtpUrl, { maxConnections: config.emailConcurrency })
    : createOutboxTransport(db);
  // Mail sent on a church's behalf: From its verified domain and DKIM-signed, else Reply-To the church.
  return withChurchSenders(transport, (userId) => churchSender(db, userId));
}

/**
 * Twilio when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set, else the local outbox; a church
 * with its own number (Settings → Texting) texts from it, through its own Twilio account.
 */
export function smsTransportFor(config: Config, db: Db): SmsTransport {
  const platform =
    config.twilioAccountSid && config.twilioAuthToken
      ? createTwilioTransport({
          accountSid: config.twilioAccountSid,
          authToken: config.twilioAuthToken,
          apiBaseUrl: config.twilioApiBaseUrl,
        })
      : createSmsOutboxTransport(db);
  return withChurchNumbers(platform, (userId) => churchSmsNumber(db, userId), config.twilioApiBaseUrl);
}

/** An S3-compatible bucket when S3_BUCKET is set, else a folder under DATA_DIR served at /uploads/. */
export function fileStorageFor(config: Config): FileStorage {
  return config.s3Bucket
    ? createS3Storage({
        bucket: config.s3Bucket,
        endpoint: config.s3Endpoint,
        region: config.s3Region,
        accessKeyId: config.s3AccessKeyId,
        secretAccessKey: config.s3SecretAccessKey,
        publicUrl: config.s3PublicUrl,
      })
    : createLocalStorage(path.join(config.dataDir, 'uploads'));
}

/** Stripe with both keys; demo mode without them (never in production, where giving is disabled). */
export async function showUpServicesFor(config: Config, db: Db): Promise<ShowUpServices> {
  const map = {
    mapTileUrl: config.mapTileUrl ?? DEFAULT_MAP_TILE_URL,
    mapAttribution: config.mapTileAttribution ?? DEFAULT_MAP_ATTRIBUTION,
    cardFee: config.cardFee,
  };
  if (config.stripeSecretKey && config.stripeWebhookSecret) {
    return {
      ...map,
      payments: createStripePayments({
        secretKey: config.stripeSecretKey,
        webhookSecret: config.stripeWebhookSecret,
        publishableKey: config.stripePublishableKey ?? null,
        apiBaseUrl: config.stripeApiBaseUrl,
        connect: config.stripeConnect,
        platformFeePercent: config.platformFeePercent,
      }),
    };
  }
  if (config.nodeEnv === 'production') return { ...map, payments: createDisabledPayments() };
  const webhookSecret = await getOrCreateSetting(db, 'stripe_demo_webhook_secret', () => `whsec_${randomSecret()}`);
  return {
    ...map,
    payments: createDemoPayments({
      webhookSecret,
      connect: config.stripeConnect,
      platformFeePercent: config.platformFeePercent,
    }),
  };
}

export async function startRuntime(
  config: Config,
  db: Db,
  databaseUrl: string,
  opts: {
    work?: boolean;
    pollingIntervalSeconds?: number;
    delivery?: Partial<DeliveryConfig>;
    log?: JobLog;
    /**
     * pg-boss's connection: the tables' owner when the app logs in as its own role (it creates its
     * schema and a table per queue). Default `databaseUrl`.
     */
    queueUrl?: string;
  } = {},
): Promise<AppRuntime> {
  installKeyring(config);
  const email = emailTransportFor(config, db);
  const sms = smsTransportFor(config, db);
  const delivery = await deliveryConfigFor(config, db, opts.delivery);
  // One pacer per process, for everything in it that sends or moves journeys (only where it works).
  const work = opts.work ?? config.runWorkers;
  if (work && config.workerCpuPercent < 100 && !delivery.pacer)
    delivery.pacer = new Pacer({ target: config.workerCpuPercent / 100 });
  const pages = {
    cache: new PublicPageCache(),
    hasher: new VisitorHasher(db),
    visits: new VisitRecorder(db, { onError: (err) => opts.log?.('visits not recorded', { err }) }),
  };
  const showUp = await showUpServicesFor(config, db);
  const storage = fileStorageFor(config);
  const previews = new PreviewThread({
    url: databaseUrl,
    rls: config.rls,
    pooler: config.databasePooler,
    nice: config.workerNice,
  });
  const runner = await startJobs({
    connectionString: opts.queueUrl ?? databaseUrl,
    listenUrl: listenUrlOf(config, databaseUrl),
    config,
    deps: { db, email, sms, delivery, showUp, storage },
    work,
    pollingIntervalSeconds: opts.pollingIntervalSeconds,
    log: opts.log,
    poolMax: config.dbPoolMax,
  });
  return {
    deps: {
      db,
      jobs: runner.queue,
      email,
      sms,
      delivery,
      storage,
      ai: aiProviderFor({
        apiKey: config.openaiApiKey,
        baseURL: config.openaiBaseUrl,
        model: config.openaiModel,
        timeoutMs: config.openaiTimeoutMs,
      }),
      aiGenerationsPerHour: config.aiGenerationsPerHour,
      limits: {
        aiGenerationsPerAddressPerHour: config.aiGenerationsPerAddressPerHour,
        donationsPerAddressPerHour: config.donationsPerAddressPerHour,
      },
      pages,
      qr: qrSettingsFor(config),
      showUp,
      accounts: { registrationsPerHour: config.registrationsPerHour, firstAccountIsAdmin: config.firstAccountIsAdmin },
      emailEvents: config.emailEvents,
      reads: new ReadRouting(db, config.readYourWritesSeconds),
      previews,
    },
    runner,
    async close() {
      await pages.visits.flush();
      await previews.close();
      await runner.stop();
      await email.close();
      delivery.pacer?.close();
    },
  };
}
