import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.js';
import { ownerDb } from './tenancy.js';
import { emptyDatabase } from '../test/fresh-db.js';

// Migration 0102 moves every Show Up donation into the ledger (`gifts` and a line to
// the project's own fund). Its totals before and after, per church, per project and per status,
// are the same to the cent; every id, source and event is kept.

const BEFORE = '2026_11_29_0101_proposal_phone_code';
const { db } = await emptyDatabase();
const owner = ownerDb(db);
const migrator = new Migrator({ db: owner, provider: { getMigrations: async () => migrations } });

type Row = Record<string, unknown>;
const rows = async (q: ReturnType<typeof sql>) => (await q.execute(owner)).rows as Row[];

describe('migration 0102: one ledger', () => {
  it('moves every Show Up donation into gifts with the same totals per church, project and status', async () => {
    const to = await migrator.migrateTo(BEFORE);
    expect(to.error).toBeUndefined();

    // Two churches, three projects, donations in every status, with sources, an anonymous gift,
    // a donor who is a contact already and one who is not, and a key a church gift already uses.
    const churches = await rows(sql`
      insert into users (username, email, password_hash, church_name)
      values ('grace', 'grace@example.org', 'x', 'Grace'), ('hope', 'hope@example.org', 'x', 'Hope')
      returning id`);
    const [grace, hope] = churches.map((c) => c.id as number) as [number, number];
    const projects = await rows(sql`
      insert into show_up_projects (user_id, title, short_description, description, location, target_amount,
                                    organization_name, contact_email, raised_amount, donations_count)
      values (${grace}, 'Roof', 's', 'd', 'here', 10000, 'Grace', 'g@example.org', 55.5, 2),
             (${grace}, 'General', 's', 'd', 'here', 10000, 'Grace', 'g@example.org', 0, 0),
             (${hope}, 'Well', 's', 'd', 'there', 5000, 'Hope', 'h@example.org', 12.34, 1)
      returning id`);
    const [roof, named, well] = projects.map((p) => p.id as number) as [number, number, number];
    await sql`insert into contacts (user_id, first_name, last_name, email) values (${grace}, 'Lydia', 'Purple', 'LYDIA@example.org')`.execute(
      owner,
    );
    await sql`insert into funds (user_id, name) values (${grace}, 'General'), (${hope}, 'General') on conflict do nothing`.execute(
      owner,
    );
    const general = (await rows(sql`select id from funds where user_id = ${grace} and name = 'General'`))[0]!.id;
    await sql`
      insert into gifts (user_id, amount_cents, idempotency_key, receipt_token, status)
      values (${grace}, 5000, 'shared-key-0000000001', 'church-gift-receipt', 'completed')`.execute(owner);
    await sql`insert into gift_lines (user_id, gift_id, fund_id, amount_cents)
              select ${grace}, id, ${general}, 5000 from gifts`.execute(owner);
    let n = 0;
    const donation = (
      userId: number,
      projectId: number,
      cents: number,
      status: string,
      extra: {
        email?: string | null;
        name?: string | null;
        anonymous?: boolean;
        key?: string;
        source?: [string, number];
      } = {},
    ) => {
      n++;
      return sql`
        insert into show_up_donations (user_id, project_id, amount, amount_cents, donor_name, donor_email, is_anonymous,
                                       message, show_message, status, idempotency_key, receipt_token, stripe_payment_id,
                                       source_kind, source_id, completed_at, failure_reason)
        values (${userId}, ${projectId}, ${cents / 100}, ${cents}, ${extra.name ?? null}, ${extra.email ?? null},
                ${extra.anonymous ?? false}, ${`message ${n}`}, ${n % 2 === 0}, ${status},
                ${extra.key ?? `key-${n}-xxxxxxxxxxxxxxxx`}, ${`token-${n}`}, ${`pi_${n}`},
                ${extra.source?.[0] ?? null}, ${extra.source?.[1] ?? null},
                ${status === 'completed' || status === 'refunded' ? sql`now()` : null},
                ${status === 'failed' ? 'Card declined' : null})`.execute(owner);
    };
    await donation(grace, roof, 4000, 'completed', {
      email: 'lydia@example.org',
      name: 'Lydia Purple',
      source: ['qr', 7],
    });
    await donation(grace, roof, 1550, 'completed', { anonymous: true, key: 'shared-key-0000000001' });
    await donation(grace, roof, 999, 'refunded', { email: 'demas@example.org', name: 'Demas  Away Long' });
    await donation(grace, roof, 2500, 'failed', { email: 'x@example.org' });
    await donation(grace, named, 700, 'pending', { email: 'y@example.org' });
    await donation(hope, well, 1234, 'completed', { email: 'lydia@example.org', name: 'Lydia' });
    await sql`
      insert into events (user_id, type, payload, actor_kind)
      select user_id, 'donation.succeeded', jsonb_build_object('donationId', id), 'public'
        from show_up_donations where status = 'completed'`.execute(owner);

    // A receipt still queued (pg-boss's table, as far as this migration reads it) names the Show Up id.
    await sql`create schema pgboss`.execute(owner);
    await sql`create table pgboss.job (id serial, name text, state text, data jsonb)`.execute(owner);
    const firstId = (await rows(sql`select min(id) as id from show_up_donations`))[0]!.id as number;
    await sql`insert into pgboss.job (name, state, data)
              values ('donation-receipt', 'retry', jsonb_build_object('donationId', ${firstId}::int)),
                     ('donation-receipt', 'completed', jsonb_build_object('donationId', ${firstId}::int))`.execute(
      owner,
    );

    const before = {
      byChurch: await rows(sql`select user_id as key, count(*)::int as n, sum(amount_cents)::text as cents
                                 from show_up_donations group by 1 order by 1`),
      byProject: await rows(sql`select project_id as key, count(*)::int as n, sum(amount_cents)::text as cents
                                  from show_up_donations group by 1 order by 1`),
      byStatus: await rows(sql`select status as key, count(*)::int as n, sum(amount_cents)::text as cents
                                 from show_up_donations group by 1 order by 1`),
      byProjectStatus: await rows(sql`select project_id || ':' || status as key, sum(amount)::text as dollars
                                        from show_up_donations group by 1 order by 1`),
      rows: await rows(sql`select id, amount_cents, status, source_kind, source_id, stripe_payment_id, receipt_token,
                                  donor_email, is_anonymous, message, show_message, failure_reason
                             from show_up_donations order by id`),
      events: await rows(sql`select id, type, payload from events order by id`),
    };
    expect(before.rows).toHaveLength(6);

    const latest = await migrator.migrateToLatest();
    expect(latest.error).toBeUndefined();

    const projectGifts = sql`
      from gifts g join gift_lines l on l.gift_id = g.id join funds f on f.id = l.fund_id
      where f.project_id is not null`;
    const after = {
      byChurch: await rows(sql`select g.user_id as key, count(*)::int as n, sum(l.amount_cents)::text as cents
                                 ${projectGifts} group by 1 order by 1`),
      byProject: await rows(sql`select f.project_id as key, count(*)::int as n, sum(l.amount_cents)::text as cents
                                  ${projectGifts} group by 1 order by 1`),
      byStatus: await rows(sql`select g.status as key, count(*)::int as n, sum(l.amount_cents)::text as cents
                                 ${projectGifts} group by 1 order by 1`),
      byProjectStatus: await rows(sql`select f.project_id || ':' || g.status as key,
                                             (sum(l.amount_cents) / 100.0)::numeric(12, 2)::text as dollars
                                        ${projectGifts} group by 1 order by 1`),
      rows: await rows(sql`select g.show_up_donation_id as id, g.amount_cents, g.status, g.source_kind, g.source_id,
                                  g.stripe_payment_id, g.receipt_token, g.donor_email, g.is_anonymous,
                                  g.note as message, g.show_note as show_message, g.failure_reason
                             ${projectGifts} order by g.show_up_donation_id`),
      events: await rows(sql`select id, type, payload from events order by id`),
    };
    expect(after.byChurch).toEqual(before.byChurch);
    expect(after.byProject).toEqual(before.byProject);
    expect(after.byStatus).toEqual(before.byStatus);
    expect(after.byProjectStatus).toEqual(before.byProjectStatus);
    expect(after.rows).toEqual(before.rows);
    expect(after.events).toEqual(before.events);

    // The queued receipt now names the gift; a finished job is left as it was.
    const gift = (await rows(sql`select id from gifts where show_up_donation_id = ${firstId}`))[0]!.id;
    expect(await rows(sql`select state, data from pgboss.job order by id`)).toEqual([
      { state: 'retry', data: { donationId: gift } },
      { state: 'completed', data: { donationId: firstId } },
    ]);

    // Each project owns one fund named after it (a church fund 'General' and a project 'General'
    // live side by side), not offered on the giving page.
    const funds = await rows(
      sql`select project_id, name, is_public from funds where project_id is not null order by project_id`,
    );
    expect(funds).toEqual([
      { projectId: roof, name: 'Roof', isPublic: false },
      { projectId: named, name: 'General', isPublic: false },
      { projectId: well, name: 'Well', isPublic: false },
    ]);
    // The church gift's key stays its own; the donation that shared it is told apart.
    const keys = await rows(
      sql`select idempotency_key from gifts where idempotency_key like '%shared-key%' order by 1`,
    );
    expect(keys.map((k) => k.idempotencyKey)).toEqual(['shared-key-0000000001', 'show-up-shared-key-0000000001']);
    // Completed and refunded gifts belong to their donor's contact (matched, or made for them).
    const owners = await rows(sql`
      select g.show_up_donation_id as id, c.first_name, c.last_name, c.email from gifts g
        left join contacts c on c.id = g.contact_id where g.show_up_donation_id is not null order by 1`);
    expect(owners.map((o) => [o.firstName, o.lastName, o.email])).toEqual([
      ['Lydia', 'Purple', 'LYDIA@example.org'],
      [null, null, null],
      ['Demas  Away', 'Long', 'demas@example.org'],
      [null, null, null],
      [null, null, null],
      ['Lydia', '', 'lydia@example.org'],
    ]);
    // The table and the stored totals are gone: nothing keeps a second copy of the money.
    const left = await rows(sql`
      select table_name, column_name from information_schema.columns
       where (table_name = 'show_up_donations') or (table_name = 'show_up_projects' and column_name in ('raised_amount', 'donations_count'))`);
    expect(left).toEqual([]);
  });
});
