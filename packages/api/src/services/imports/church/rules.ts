/**
 * What moving a Lampstand export into a new church does with each table, beyond giving every row
 * a new id and following its references: the tables that stay behind, the columns it clears or
 * makes afresh, and the work it holds back so that nothing goes out from the new church by itself.
 * The README of every export lists these decisions (`RESTORE_NOTES`), and the round-trip test reads
 * them to know which columns may differ.
 */

type Row = Record<string, unknown>;

/** A reference a column holds without a foreign key: the table it names, or none for this row. */
export type RefTarget = string | ((row: Row) => string | null);

const campaignOf = (channel: unknown) =>
  channel === 'sms' ? 'sms_campaigns' : channel === 'email' ? 'email_campaigns' : null;

/** Where a gift or sign-up came from (`source_kind`, `source_id`). */
export const SOURCE_TABLES: Record<string, string> = {
  qr: 'qr_codes',
  page: 'landing_pages',
  email: 'email_campaigns',
  sms: 'sms_campaigns',
};

/** Columns that hold another row's id with no foreign key to say so. `users` is the church's login. */
export const IMPLICIT_REFS: Record<string, Record<string, RefTarget>> = {
  campaign_recipient_usage: { campaign_id: (r) => campaignOf(r.channel) },
  contact_merges: { merged_contact_id: 'contacts' },
  deliveries: { campaign_id: (r) => campaignOf(r.channel) },
  outbox_messages: { campaign_id: (r) => campaignOf(r.channel) },
  email_campaigns: { list_ids: 'contact_lists' },
  sms_campaigns: { list_ids: 'contact_lists' },
  events: {
    contact_id: 'contacts',
    actor_id: (r) => (r.actor_kind === 'user' ? 'users' : r.actor_kind === 'api_key' ? 'api_keys' : null),
  },
  gifts: { source_id: (r) => SOURCE_TABLES[String(r.source_kind)] ?? null },
  gift_schedules: { source_id: (r) => SOURCE_TABLES[String(r.source_kind)] ?? null },
  journey_enrollments: { last_email_delivery_id: 'deliveries' },
  journey_step_runs: { delivery_id: 'deliveries' },
  journeys: { activated_event_id: 'events' },
  qr_codes: { logo_upload_id: 'uploads' },
  show_up_projects: { cover_upload_id: 'uploads' },
  service_plan_announcements: { target_id: (r) => campaignOf(r.kind) },
  webhook_deliveries: { event_id: 'events' },
};

/** Tables the export writes that are not moved, and why (said in the README and the report). */
export const NOT_MOVED: Record<string, string> = {
  church_stripe_accounts: 'The Stripe account stays connected to the old church; connect Stripe again.',
  sending_domains: 'A sending domain needs its DKIM key, which never leaves the old church; add and verify it again.',
  exports: 'Earlier exports are files of the old church.',
  import_changes:
    "A move-in import's undo log names rows by the old church's ids; imports moved with the church cannot be undone.",
};

/**
 * Columns cleared on the way in: Stripe's ids (the payments and cards belong to the old church's
 * Stripe account, and one payment must not be in two ledgers), the texting number (it and its auth
 * token stay with the old church), and ids of rows from before the one ledger.
 */
export const CLEARED: Record<string, readonly string[]> = {
  church_settings: ['sms_from_number', 'sms_account_sid', 'sms_messaging_service_sid', 'sms_number_checked_at'],
  gifts: ['stripe_payment_id', 'stripe_customer_id', 'stripe_account_id', 'show_up_donation_id'],
  gift_schedules: ['stripe_customer_id', 'stripe_payment_method_id', 'stripe_setup_intent_id', 'stripe_account_id'],
};

/** Secret columns the export leaves out that a row cannot be without: each gets a new one (old links stop working). */
export const FRESH_TOKENS: Record<string, readonly string[]> = {
  checkin_family_cards: ['token'],
  deliveries: ['token'],
  calendar_attendees: ['ticket_token'],
  calendar_registrations: ['offer_token'],
  gifts: ['receipt_token'],
  gift_schedules: ['manage_token'],
  gift_renewals: ['token'],
  landing_page_signups: ['confirm_token_hash'],
  service_plan_assignments: ['token'],
  substitute_offer_candidates: ['token'],
  webhook_endpoints: ['secret'],
};

/**
 * Columns written afresh by their default on the way in: a place in the old server's order of
 * transactions (the event log's order, services/events/log.ts) means nothing on another server.
 * The restore's own transaction becomes the moved events' place, and the readers start after it.
 */
export const LOCAL_TO_SERVER: Record<string, readonly string[]> = {
  events: ['xid'],
  webhook_endpoints: ['last_event_xid'],
};

/** Names the whole web has one of (another church may hold the old one): kept when free, else numbered. */
export const UNIQUE_NAMES: Record<string, string> = {
  landing_pages: 'slug',
  qr_codes: 'short_code',
  church_profiles: 'handle',
};

/** Keys unique across churches, prefixed with the new church so both churches can keep theirs. */
export const PREFIXED_KEYS: Record<string, readonly string[]> = {
  gifts: ['idempotency_key'],
  calendar_registrations: ['idempotency_key'],
  gift_schedules: ['idempotency_key'],
};

export const movedKey = (tenantId: number, key: string) => `moved:${tenantId}:${key}`;

const NOT_SENT = 'Not sent: it was waiting when the church moved to this Lampstand';

/**
 * Work that would start by itself in the new church (while the old one may still do it): held
 * back. Each rule turns a row as exported into the row written; the columns it may change are
 * named beside it for the round-trip test.
 */
export const HELD_BACK: Record<string, { columns: readonly string[]; hold: (row: Row, now: Date) => void }> = {
  deliveries: {
    columns: ['status', 'last_error', 'next_attempt_at', 'claimed_at'],
    hold: (r) => {
      if (r.status !== 'pending' && r.status !== 'sending') return;
      Object.assign(r, { status: 'failed', last_error: NOT_SENT, next_attempt_at: null, claimed_at: null });
    },
  },
  email_campaigns: { columns: ['status'], hold: (r) => void (r.status === 'scheduled' && (r.status = 'draft')) },
  sms_campaigns: {
    columns: ['status'],
    hold: (r) => void ((r.status === 'scheduled' || r.status === 'ready') && (r.status = 'draft')),
  },
  social_posts: { columns: ['status'], hold: (r) => void (r.status === 'scheduled' && (r.status = 'draft')) },
  journeys: { columns: ['status'], hold: (r) => void (r.status === 'active' && (r.status = 'paused')) },
  gift_schedules: {
    columns: ['status'],
    hold: (r) =>
      void ((r.status === 'active' || r.status === 'pending' || r.status === 'failing') && (r.status = 'paused')),
  },
  webhook_endpoints: {
    columns: ['disabled_at', 'disabled_reason', 'last_event_id', 'previous_secret_until'],
    hold: (r, now) => {
      if (r.disabled_at === null || r.disabled_at === undefined) {
        // Switched off as staff would ('staff'): it has a new signing secret, which staff pass on before switching it on.
        r.disabled_at = now;
        r.disabled_reason = 'staff';
      }
      r.previous_secret_until = null;
    },
  },
  giving_statement_runs: {
    columns: ['status'],
    hold: (r) => void (['queued', 'building', 'sending'].includes(String(r.status)) && (r.status = 'failed')),
  },
  imports: {
    columns: ['status', 'error'],
    hold: (r) => {
      if (r.status !== 'queued' && r.status !== 'running') return;
      Object.assign(r, { status: 'failed', error: 'Stopped when the church moved' });
    },
  },
};

/** The decisions in words, for the README of an export. */
export const RESTORE_NOTES: readonly string[] = [
  'Every row gets a new id, and every reference to it (columns, and ids inside JSON such as pages, journeys, ' +
    'plans and the activity log) follows. Uploaded files are copied and their addresses rewritten.',
  'It goes only into a new church: one with no rows yet in any table this export writes, apart from its own ' +
    'settings, the General fund and the emails sign-up makes, and its exports and move-in uploads.',
  ...Object.entries(NOT_MOVED).map(([t, why]) => `\`${t}\` is not moved: ${why}`),
  'Stripe ids of gifts and recurring gifts are cleared (the payments belong to the old Stripe account); the ' +
    'texting number and its account are cleared (set up texting again).',
  'Links sent to people (receipts, manage-your-gift, set-up-your-gift-again, serving requests, sign-up ' +
    'confirmations) get new tokens: ' +
    'the old links stop working. Webhooks come back switched off with a new signing secret.',
  'Nothing goes out by itself: scheduled campaigns and posts come back as drafts, waiting messages as not ' +
    'sent, active journeys and recurring gifts as paused. Gifts come back as the ledger had them, with no ' +
    'receipt, journey or webhook.',
  'Landing page addresses, QR short codes and the public handle are kept when no other church uses them, ' +
    'else numbered (`easter` → `easter-2`).',
];
