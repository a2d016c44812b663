import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Outgoing webhooks (issue 27 §5–8). A church's endpoints, each with the event types it wants (null:
// all), its signing secret (and the previous one, valid 24 hours after a rotation) and a cursor:
// the last event id dispatched to it. The dispatcher (services/webhooks/dispatch.ts) reads the
// church's events after the cursor, makes their deliveries and moves the cursor in one
// transaction, so no event is lost or fanned out twice; the writer of an event does no more than
// notify. A delivery keeps one message id (`webhook-id`) for every try, its attempt count, when it
// is next due, the lease of a worker sending it and the last answer. The claim changes no indexed
// column (and pages keep room), so it is a HOT update that adds no index entries.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id serial primary key,
      user_id integer not null references users(id) on delete cascade,
      url text not null,
      description text not null default '',
      event_types text[],
      secret text not null,
      previous_secret text,
      previous_secret_until timestamptz,
      disabled_at timestamptz,
      disabled_reason text check (disabled_reason in ('staff', 'gone', 'failing')),
      failing_since timestamptz,
      last_event_id bigint not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoints_church_idx on webhook_endpoints (user_id, id)`.execute(db);

  await sql`
    create table webhook_deliveries (
      id bigint generated always as identity primary key,
      user_id integer not null references users(id) on delete cascade,
      endpoint_id integer not null references webhook_endpoints(id) on delete cascade,
      event_id bigint,
      type text not null,
      payload jsonb,
      message_id text not null default 'msg_' || replace(gen_random_uuid()::text, '-', ''),
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      lease_until timestamptz,
      last_attempt_at timestamptz,
      response_status integer,
      duration_ms integer,
      response_excerpt text,
      created_at timestamptz not null default now(),
      delivered_at timestamptz
    ) with (fillfactor = 70)`.execute(db);
  await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, id)`.execute(db);
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(
    db,
  );

  // Row-level security like every church table (0048).
  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  for (const table of ['webhook_endpoints', 'webhook_deliveries']) {
    await sql.raw(`alter table ${table} enable row level security`).execute(db);
    await sql.raw(`create policy church_rows on ${table} using (${rule}) with check (${rule})`).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table webhook_deliveries`.execute(db);
  await sql`drop table webhook_endpoints`.execute(db);
}
