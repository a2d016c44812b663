import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// One ledger. A Show Up card gift lived in `show_up_donations`, which statements, the
// giving overview, the gift list, lapsed donors, exports and the portal's My giving never read: a
// donor who gave $40 to the roof and $50 by check got a statement for $50. A project gift is now a
// gift: each project owns a fund (`funds.project_id`, named after the project, not offered on the
// giving page), and a project gift is a one-time card gift with one line to that fund
// (docs/decisions.md). Every donation moves to `gifts` with its amount, status, failure,
// Stripe ids, source, receipt token and times; its id is kept as `gifts.show_up_donation_id` (the
// receipt number printed on its receipt, the donationId of its events and of its PaymentIntent's
// metadata); a receipt job still queued is pointed at the gift. Its events stay in the event log
// as they were. A donor who completed a gift and has
// no contact gets one, as a gift made now would (a statement is a contact's), not subscribed to
// anything. Then the table goes, and with it the project's stored totals: the raised amount and
// supporters are read from the ledger.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table funds add column project_id integer unique references show_up_projects(id) on delete cascade`.execute(
    db,
  );
  // A church's own funds keep unique names; a project's fund is named after the project, whatever
  // its title (two projects may share one, or share a fund's).
  await sql`drop index funds_church_name_key`.execute(db);
  await sql`create unique index funds_church_name_key on funds (user_id, lower(name)) where project_id is null`.execute(
    db,
  );
  await sql`
    alter table gifts
      add column is_anonymous boolean not null default false,
      add column show_note boolean not null default false,
      add column receipt_url text,
      add column show_up_donation_id integer unique`.execute(db);

  await sql`
    insert into funds (user_id, name, is_public, project_id, created_at)
    select user_id, title, false, id, created_at from show_up_projects order by id`.execute(db);

  await sql`
    insert into contacts (user_id, first_name, last_name, email, tags, email_consent, email_consent_at,
                          email_consent_source, sms_consent)
    select user_id,
           case when name ~ '\\s' then regexp_replace(name, '\\s+\\S+$', '') else name end,
           case when name ~ '\\s' then substring(name from '\\S+$') else '' end,
           donor_email, array['donor'], 'unsubscribed', now(), 'giving', 'unsubscribed'
      from (select distinct on (d.user_id, lower(d.donor_email))
                   d.user_id, d.donor_email,
                   btrim(coalesce(nullif(btrim(d.donor_name), ''), split_part(d.donor_email, '@', 1))) as name
              from show_up_donations d
             where d.status in ('completed', 'refunded') and d.donor_email is not null and not d.is_anonymous
               and not exists (select 1 from contacts c
                                where c.user_id = d.user_id and c.email_lower = lower(d.donor_email))
             order by d.user_id, lower(d.donor_email), d.id) donors`.execute(db);

  await sql`
    insert into gifts (user_id, contact_id, amount_cents, fee_cents, currency, donor_name, donor_email, note,
                       show_note, is_anonymous, frequency, method, status, failure_reason, stripe_payment_id,
                       stripe_client_secret, stripe_customer_id, stripe_account_id, platform_fee_cents,
                       idempotency_key, is_demo, source_kind, source_id, receipt_token, receipt_url,
                       receipt_sent_at, completed_at, refunded_at, created_at, updated_at, show_up_donation_id)
    select d.user_id,
           case when d.status in ('completed', 'refunded') and d.donor_email is not null and not d.is_anonymous then
             (select c.id from contacts c where c.user_id = d.user_id and c.email_lower = lower(d.donor_email)
               order by c.id limit 1)
           end,
           d.amount_cents, 0, d.currency, d.donor_name, d.donor_email, d.message, d.show_message, d.is_anonymous,
           'one_time', 'card', d.status, d.failure_reason, d.stripe_payment_id, d.stripe_client_secret,
           d.stripe_customer_id, d.stripe_account_id, d.platform_fee_cents,
           case when exists (select 1 from gifts g where g.idempotency_key = d.idempotency_key)
                then 'show-up-' || d.idempotency_key else d.idempotency_key end,
           d.is_demo, d.source_kind, d.source_id, d.receipt_token, d.receipt_url, d.receipt_sent_at,
           d.completed_at, d.refunded_at, d.created_at, d.updated_at, d.id
      from show_up_donations d
     order by d.id`.execute(db);
  await sql`
    insert into gift_lines (user_id, gift_id, fund_id, amount_cents)
    select g.user_id, g.id, f.id, g.amount_cents
      from gifts g
      join show_up_donations d on d.id = g.show_up_donation_id
      join funds f on f.project_id = d.project_id
     order by g.id`.execute(db);

  // A receipt still to send names its donation by the Show Up id: it now names the gift.
  await sql`
    do $$ begin
      if to_regclass('pgboss.job') is not null then
        update pgboss.job j set data = jsonb_build_object('donationId', g.id)
          from gifts g
         where j.name = 'donation-receipt' and j.state in ('created', 'retry', 'active')
           and g.show_up_donation_id = (j.data->>'donationId')::int;
      end if;
    end $$`.execute(db);

  await sql`drop table show_up_donations`.execute(db);
  await sql`alter table show_up_projects drop column raised_amount, drop column donations_count`.execute(db);
}

export async function down(): Promise<void> {
  // The donations now sit in the ledger among the church's other gifts, and a project gift made
  // since has no Show Up id of its own: splitting them out again would guess.
  throw new Error('2026_11_29_0102_one_ledger cannot be undone: restore a backup taken before it');
}
