import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Two-way texting (issue 32 §1, §2, §4). A conversation is a church's thread with one phone
// number (E.164): its contact when one is known (null: 'Unknown', until staff link it or make a
// contact of it), open or closed, the staff user it is assigned to and how many texts in it are
// unread. Its messages are the texts that came in (each one row of `sms_inbound_messages`, the
// platform-wide record of what Twilio delivered, so a retried webhook is stored once) and the
// replies staff sent, each a delivery of kind 'conversation-reply' of the one engine. Quick
// replies are a church's saved snippets.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table conversations (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      contact_id integer references contacts(id) on delete set null,
      phone_e164 text not null,
      status text not null default 'open' check (status in ('open', 'closed')),
      assigned_user_id integer references users(id) on delete set null,
      unread_count integer not null default 0,
      last_message_at timestamptz not null default now(),
      last_message_preview text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (user_id, phone_e164)
    )`.execute(db);
  await sql`create index conversations_church_recent_idx on conversations (user_id, last_message_at desc, id desc)`.execute(
    db,
  );
  await sql`create index conversations_contact_idx on conversations (contact_id) where contact_id is not null`.execute(
    db,
  );

  await sql`
    alter table deliveries
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply')),
      add column conversation_id integer references conversations(id) on delete cascade,
      drop constraint deliveries_kind_refs,
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
        or (kind = 'conversation-reply' and campaign_id is null and conversation_id is not null)
      )`.execute(db);
  await sql`
    create index deliveries_conversation_work_idx on deliveries (conversation_id, id)
    where kind = 'conversation-reply' and status in ('pending', 'sending')`.execute(db);
  // The shared platform number routes a text to every church that texted the number lately.
  await sql`create index deliveries_sms_address_idx on deliveries (address, sent_at) where channel = 'sms'`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ('campaign', 'planner-request', 'journey', 'conversation-reply'))`.execute(
    db,
  );

  await sql`
    create table conversation_messages (
      id bigint generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      conversation_id integer not null references conversations(id) on delete cascade,
      direction text not null check (direction in ('inbound', 'outbound')),
      body text not null,
      inbound_message_id bigint references sms_inbound_messages(id) on delete set null,
      delivery_id integer references deliveries(id) on delete set null,
      keyword text,
      sent_by_user_id integer references users(id) on delete set null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index conversation_messages_thread_idx on conversation_messages (conversation_id, id)`.execute(db);
  await sql`create unique index conversation_messages_inbound_key on conversation_messages (conversation_id, inbound_message_id)`.execute(
    db,
  );
  await sql`create unique index conversation_messages_delivery_key on conversation_messages (delivery_id)`.execute(db);

  await sql`
    create table sms_quick_replies (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      title text not null,
      body text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sms_quick_replies_church_idx on sms_quick_replies (user_id, id)`.execute(db);

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['conversations', 'conversation_messages', 'sms_quick_replies']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table sms_quick_replies`.execute(db);
  await sql`drop table conversation_messages`.execute(db);
  await sql`delete from campaign_recipient_usage where kind = 'conversation-reply'`.execute(db);
  await sql`
    alter table campaign_recipient_usage
      drop constraint campaign_recipient_usage_kind_check,
      add constraint campaign_recipient_usage_kind_check check (kind in ('campaign', 'planner-request', 'journey'))`.execute(
    db,
  );
  await sql`delete from deliveries where kind = 'conversation-reply'`.execute(db);
  await sql`drop index deliveries_sms_address_idx`.execute(db);
  await sql`
    alter table deliveries
      drop constraint deliveries_kind_refs,
      drop column conversation_id,
      drop constraint deliveries_kind_check,
      add constraint deliveries_kind_check check (kind in ('campaign', 'planner-request', 'journey')),
      add constraint deliveries_kind_refs check (
        (kind = 'campaign' and campaign_id is not null)
        or (kind = 'planner-request' and campaign_id is null and service_plan_id is not null and assignment_id is not null)
        or (kind = 'journey' and campaign_id is null and journey_id is not null and journey_enrollment_id is not null
            and journey_step_id is not null)
      )`.execute(db);
  await sql`drop table conversations`.execute(db);
}
