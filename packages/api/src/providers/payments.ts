import crypto from 'node:crypto';
import Stripe from 'stripe';

/**
 * Card payments. 'stripe': the real Stripe API through its SDK (STRIPE_SECRET_KEY and
 * STRIPE_WEBHOOK_SECRET). 'demo': no keys on a machine that is not production; payments are
 * completed by a locally signed payment_intent.succeeded through the same webhook handler.
 * 'disabled': production without keys; nobody can give until an administrator sets them.
 */
export type PaymentsMode = 'stripe' | 'demo' | 'disabled';

export interface CreatePaymentIntentInput {
  amountCents: number;
  currency: 'usd';
  /** Stripe's idempotency key: a retried prepare gets the same PaymentIntent. */
  idempotencyKey: string;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  description: string;
  /** Connect: a destination charge to the church's account, with the platform's fee. */
  destination: { account: string; applicationFeeCents: number } | null;
}

/** A saved card charged without the donor present (a recurring gift's date). */
export interface ChargeOffSessionInput {
  amountCents: number;
  currency: 'usd';
  customer: string;
  paymentMethod: string;
  /** One per (schedule, date, attempt): a retried job never charges twice. */
  idempotencyKey: string;
  metadata: Record<string, string>;
  description: string;
  destination: { account: string; applicationFeeCents: number } | null;
}

/** What an off-session charge came to: paid, declined, or the bank asks the donor to confirm (3-D Secure). */
export type OffSessionResult =
  | { status: 'succeeded'; id: string }
  | { status: 'requires_action'; id: string; clientSecret: string }
  | { status: 'failed'; id: string | null; message: string };

export interface PaymentsProvider {
  readonly mode: PaymentsMode;
  /** Served to the browser for Stripe.js (never built into the web app). */
  readonly publishableKey: string | null;
  /** STRIPE_CONNECT=on: each church is paid on its own Stripe account. */
  readonly connect: boolean;
  readonly platformFeePercent: number;
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<{ id: string; clientSecret: string }>;
  /** The event, when the signature over the raw body is valid (default tolerance); throws otherwise. */
  verifyWebhook(rawBody: string, signature: string | undefined): Promise<Stripe.Event>;
  /** Demo mode only: a Stripe-Signature header for a locally built event. */
  signDemoEvent(payload: string): string;
  createConnectAccount(input: { email: string; churchName: string; idempotencyKey: string }): Promise<{ id: string }>;
  createOnboardingLink(input: { account: string; refreshUrl: string; returnUrl: string }): Promise<{ url: string }>;
  retrieveAccount(account: string): Promise<{ chargesEnabled: boolean; detailsSubmitted: boolean }>;
  /** A Stripe customer for a recurring donor (the saved card belongs to it). */
  createCustomer(input: { email: string; name: string; idempotencyKey: string }): Promise<{ id: string }>;
  /** Save a card for later off-session charges (a SetupIntent, usage off_session). */
  createSetupIntent(input: {
    customer: string;
    idempotencyKey: string;
    metadata: Record<string, string>;
  }): Promise<{ id: string; clientSecret: string }>;
  chargeOffSession(input: ChargeOffSessionInput): Promise<OffSessionResult>;
  /** Gives back all or part of a paid PaymentIntent (the same key never refunds twice). */
  refund(input: RefundInput): Promise<{ id: string }>;
}

export interface RefundInput {
  paymentIntentId: string;
  amountCents: number;
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  publishableKey: string | null;
  /** Another API host (a local peer in tests): e.g. http://127.0.0.1:12111. Unset: api.stripe.com. */
  apiBaseUrl?: string;
  connect: boolean;
  platformFeePercent: number;
}

function sdkOptions(apiBaseUrl: string | undefined): Stripe.StripeConfig {
  if (!apiBaseUrl) return { maxNetworkRetries: 2 };
  const u = new URL(apiBaseUrl);
  return {
    host: u.hostname,
    port: u.port || (u.protocol === 'https:' ? 443 : 80),
    protocol: u.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 0,
    telemetry: false,
  };
}

/** The real Stripe API. */
export function createStripePayments(settings: StripeSettings): PaymentsProvider {
  const stripe = new Stripe(settings.secretKey, sdkOptions(settings.apiBaseUrl));
  return {
    mode: 'stripe',
    publishableKey: settings.publishableKey,
    connect: settings.connect,
    platformFeePercent: settings.platformFeePercent,
    async createPaymentIntent(input) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: input.currency,
          automatic_payment_methods: { enabled: true },
          metadata: input.metadata,
          description: input.description,
          ...(input.receiptEmail ? { receipt_email: input.receiptEmail } : {}),
          ...(input.destination
            ? {
                transfer_data: { destination: input.destination.account },
                ...(input.destination.applicationFeeCents > 0
                  ? { application_fee_amount: input.destination.applicationFeeCents }
                  : {}),
              }
            : {}),
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!intent.client_secret) throw new Error('Stripe returned a PaymentIntent without a client secret');
      return { id: intent.id, clientSecret: intent.client_secret };
    },
    async verifyWebhook(rawBody, signature) {
      return stripe.webhooks.constructEventAsync(rawBody, signature ?? '', settings.webhookSecret);
    },
    signDemoEvent() {
      throw new Error('Demo events are refused when Stripe keys are set');
    },
    async createConnectAccount(input) {
      const account = await stripe.accounts.create(
        {
          type: 'express',
          email: input.email,
          business_profile: { name: input.churchName },
          capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
        },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: account.id };
    },
    async createOnboardingLink(input) {
      const link = await stripe.accountLinks.create({
        account: input.account,
        refresh_url: input.refreshUrl,
        return_url: input.returnUrl,
        type: 'account_onboarding',
      });
      return { url: link.url };
    },
    async retrieveAccount(account) {
      const a = await stripe.accounts.retrieve(account);
      return { chargesEnabled: !!a.charges_enabled, detailsSubmitted: !!a.details_submitted };
    },
    async createCustomer(input) {
      const c = await stripe.customers.create(
        { email: input.email, name: input.name },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: c.id };
    },
    async createSetupIntent(input) {
      const si = await stripe.setupIntents.create(
        {
          customer: input.customer,
          usage: 'off_session',
          automatic_payment_methods: { enabled: true },
          metadata: input.metadata,
        },
        { idempotencyKey: input.idempotencyKey },
      );
      if (!si.client_secret) throw new Error('Stripe returned a SetupIntent without a client secret');
      return { id: si.id, clientSecret: si.client_secret };
    },
    async chargeOffSession(input) {
      try {
        const pi = await stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: input.currency,
            customer: input.customer,
            payment_method: input.paymentMethod,
            off_session: true,
            confirm: true,
            metadata: input.metadata,
            description: input.description,
            ...(input.destination
              ? {
                  transfer_data: { destination: input.destination.account },
                  ...(input.destination.applicationFeeCents > 0
                    ? { application_fee_amount: input.destination.applicationFeeCents }
                    : {}),
                }
              : {}),
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (pi.status === 'succeeded' || pi.status === 'processing') return { status: 'succeeded', id: pi.id };
        if (pi.status === 'requires_action' && pi.client_secret) {
          return { status: 'requires_action', id: pi.id, clientSecret: pi.client_secret };
        }
        return { status: 'failed', id: pi.id, message: pi.last_payment_error?.message ?? 'The payment failed' };
      } catch (err) {
        // A decline (402) or a card that needs the donor (authentication_required) is an answer, not an error.
        if (err instanceof Stripe.errors.StripeCardError) {
          const pi = err.payment_intent;
          if (err.code === 'authentication_required' && pi?.client_secret) {
            return { status: 'requires_action', id: pi.id, clientSecret: pi.client_secret };
          }
          return { status: 'failed', id: pi?.id ?? null, message: err.message };
        }
        throw err;
      }
    },
    async refund(input) {
      const r = await stripe.refunds.create(
        { payment_intent: input.paymentIntentId, amount: input.amountCents, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { id: r.id };
    },
  };
}

/**
 * No keys, not production: PaymentIntents are made up locally (the same idempotency key gives the
 * same one) and events are signed with a local secret, verified by the same SDK code as real ones.
 */
export function createDemoPayments(settings: { webhookSecret: string; connect: boolean; platformFeePercent: number }) {
  // The SDK only signs and verifies here; it never calls the network with this key.
  const stripe = new Stripe('sk_test_demo_offline', { telemetry: false });
  const derive = (prefix: string, key: string, len = 24) =>
    `${prefix}${crypto.createHmac('sha256', settings.webhookSecret).update(key).digest('hex').slice(0, len)}`;
  const provider: PaymentsProvider = {
    mode: 'demo',
    publishableKey: null,
    connect: settings.connect,
    platformFeePercent: settings.platformFeePercent,
    async createPaymentIntent(input) {
      const id = derive('pi_demo_', input.idempotencyKey);
      return { id, clientSecret: `${id}_secret_${derive('', `secret:${id}`, 16)}` };
    },
    async verifyWebhook(rawBody, signature) {
      return stripe.webhooks.constructEventAsync(rawBody, signature ?? '', settings.webhookSecret);
    },
    signDemoEvent(payload) {
      return stripe.webhooks.generateTestHeaderString({ payload, secret: settings.webhookSecret });
    },
    async createConnectAccount(input) {
      return { id: derive('acct_demo_', input.idempotencyKey, 16) };
    },
    async createOnboardingLink(input) {
      return { url: input.returnUrl };
    },
    async retrieveAccount() {
      return { chargesEnabled: true, detailsSubmitted: true };
    },
    async createCustomer(input) {
      return { id: derive('cus_demo_', input.idempotencyKey, 16) };
    },
    async createSetupIntent(input) {
      const id = derive('seti_demo_', input.idempotencyKey);
      return { id, clientSecret: `${id}_secret_${derive('', `secret:${id}`, 16)}` };
    },
    async chargeOffSession(input) {
      // Demo cards always pay: the recurring gifts of a demo run on a controlled clock.
      return { status: 'succeeded', id: derive('pi_demo_', input.idempotencyKey) };
    },
    async refund(input) {
      return { id: derive('re_demo_', input.idempotencyKey) };
    },
  };
  return provider;
}

/** Production without keys: every call is refused; Donate Now says why. */
export function createDisabledPayments(): PaymentsProvider {
  const refuse = async (): Promise<never> => {
    throw new Error('Online giving is not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)');
  };
  return {
    mode: 'disabled',
    publishableKey: null,
    connect: false,
    platformFeePercent: 0,
    createPaymentIntent: refuse,
    verifyWebhook: refuse,
    signDemoEvent() {
      throw new Error('Online giving is not configured');
    },
    createConnectAccount: refuse,
    createOnboardingLink: refuse,
    retrieveAccount: refuse,
    createCustomer: refuse,
    createSetupIntent: refuse,
    chargeOffSession: refuse,
    refund: refuse,
  };
}
