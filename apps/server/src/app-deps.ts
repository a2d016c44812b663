import type { JobLog } from './logger.js';
import {
  createOutboxTransport,
  createSmsOutboxTransport,
  createSmtpTransport,
  createTwilioTransport,
  type SmsTransport,
  defaultDeliveryConfig,
  type DeliveryConfig,
  type EmailTransport,
  type JobQueue,
  type AccountPolicy,
} from '@lampstand/api/server';
import { getOrCreateSetting, randomSecret, type Db } from '@lampstand/db';
import type { Config } from './config.js';
import { startJobs, type JobRunner } from './jobs/queue.js';

/** Everything the procedures and jobs use, chosen by configuration. */
export interface AppDeps {
  db: Db;
  jobs: JobQueue;
  email: EmailTransport;
  sms: SmsTransport;
  delivery: DeliveryConfig;
  accounts: AccountPolicy;
}

export interface AppRuntime {
  deps: AppDeps;
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
    smsFromNumber: config.twilioFromNumber,
    smsRatePerSecond: config.smsRatePerSecond,
    smsConcurrency: config.smsConcurrency,
    twilioAuthToken: config.twilioAccountSid ? config.twilioAuthToken : undefined,
    ...(config.deliveryClaimLeaseSeconds ? { claimLeaseSeconds: config.deliveryClaimLeaseSeconds } : {}),
    ...(config.deliveryRetryBaseSeconds ? { retryBaseSeconds: config.deliveryRetryBaseSeconds } : {}),
    ...overrides,
  };
}

/** The email transport: SMTP when EMAIL_SMTP_URL is set, else the local outbox. */
export function emailTransportFor(config: Config, db: Db): EmailTransport {
  return config.emailSmtpUrl
    ? createSmtpTransport(config.emailSmtpUrl, { maxConnections: Math.min(10, config.emailConcurrency) })
    : createOutboxTransport(db);
}

/** Twilio when TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are set, else the local outbox. */
export function smsTransportFor(config: Config, db: Db): SmsTransport {
  return config.twilioAccountSid && config.twilioAuthToken
    ? createTwilioTransport({
        accountSid: config.twilioAccountSid,
        authToken: config.twilioAuthToken,
        apiBaseUrl: config.twilioApiBaseUrl,
      })
    : createSmsOutboxTransport(db);
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
  } = {},
): Promise<AppRuntime> {
  const email = emailTransportFor(config, db);
  const sms = smsTransportFor(config, db);
  const delivery = await deliveryConfigFor(config, db, opts.delivery);
  const runner = await startJobs({
    connectionString: databaseUrl,
    deps: { db, email, sms, delivery },
    work: opts.work ?? config.runWorkers,
    pollingIntervalSeconds: opts.pollingIntervalSeconds,
    log: opts.log,
  });
  return {
    deps: {
      db,
      jobs: runner.queue,
      email,
      sms,
      delivery,
      accounts: { registrationsPerHour: config.registrationsPerHour, firstAccountIsAdmin: config.firstAccountIsAdmin },
    },
    runner,
    async close() {
      await runner.stop();
      await email.close();
    },
  };
}
