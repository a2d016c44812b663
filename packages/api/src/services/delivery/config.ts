import type { Pacer } from './pacer.js';

/** Settings of the sending engine, from the server's configuration. */
export interface DeliveryConfig {
  /** Where recipients reach the app: tracking, unsubscribe links. */
  publicUrl: string;
  /** Signs click-tracking links (no open redirects). */
  trackingSecret: string;
  emailFrom: string;
  /** Messages per second across every worker; undefined = no limit. */
  emailRatePerSecond?: number;
  /** Messages in flight at once per worker process (every delivery job of it together). */
  emailConcurrency: number;
  smsRatePerSecond?: number;
  smsConcurrency: number;
  /** The platform's sending number (E.164); a church may have its own in church_settings. */
  smsFromNumber: string;
  /** Validates Twilio's webhook signatures; undefined when Twilio is not configured. */
  twilioAuthToken?: string;
  /** Twilio's API (TWILIO_API_BASE_URL; tests point it at a local peer): churches' own accounts. */
  twilioApiBaseUrl?: string;
  /** The domain of campaign mail's VERP return path (bounces+<token>@…); default: PUBLIC_URL's host. */
  bounceDomain?: string;
  /** What a church's SPF record includes (EMAIL_SPF_INCLUDE; default spf.<bounce domain>). */
  spfInclude?: string;
  /** The DNS server a sending domain's Verify asks (DNS_SERVER, host or host:port); default the system's. */
  dnsServer?: string;
  /** Most deliveries claimed at once (a job claims at most 8 × its concurrency). */
  batchSize: number;
  /** A claim older than this is taken to belong to a dead worker and is retried. */
  claimLeaseSeconds: number;
  /** Tries before a delivery is marked failed. */
  maxAttempts: number;
  /** First retry after this many seconds, doubling each time. */
  retryBaseSeconds: number;
  /** People a day a church with an unverified email reaches (UNVERIFIED_DAILY_RECIPIENTS, default 100). */
  unverifiedDailyRecipients?: number;
  /** EMAIL_WARMUP: a new church's first week of email limited to 50, 100, 200, … a day (warmup.ts). */
  emailWarmup?: boolean;
  /**
   * The clock due deliveries, claims (their stamps, leases and age before a send) and warm-up days
   * are read on; when absent the database's clock, and this process's monotonic clock for a claim's
   * age (tests set one).
   */
  clock?: () => Date;
  /**
   * SMS_QUIET_HOURS: texts that are not an answer wait for the end of quiet hours (21:00–8:00 in the
   * church's time zone, contact-rule.ts). Undefined: on. Off in test apps, whose time of day is the
   * real clock's (the rule's own test sets a clock).
   */
  smsQuietHours?: boolean;
  /** Let social-post webhooks reach loopback and private addresses (local receivers, tests). */
  socialWebhookAllowPrivate?: boolean;
  /** Paces background sends and journey moves by how busy the machine is (pacer.ts); none: unpaced. */
  pacer?: Pacer;
  /** Outgoing webhooks: plain http allowed (development and tests), and how far they reach. */
  webhooks?: { allowHttp: boolean; reach: 'public' | 'loopback' | 'private' };
}

export const defaultDeliveryConfig: Omit<
  DeliveryConfig,
  'publicUrl' | 'trackingSecret' | 'emailFrom' | 'smsFromNumber'
> = {
  emailConcurrency: 16,
  smsConcurrency: 16,
  batchSize: 200,
  claimLeaseSeconds: 120,
  maxAttempts: 4,
  retryBaseSeconds: 30,
};
