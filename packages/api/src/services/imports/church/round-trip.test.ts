import { describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import { sql, tenantDb, type Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import type { EmailTransport } from '../../../providers/email.js';
import { memoryStorage } from '../../../providers/memory-storage.js';
import { runChurchExport } from '../../exports/build.js';
import { createExport } from '../../exports/exports.js';
import { readExport } from '../../exports/read.js';
import { SKIPPED_TABLES } from '../../exports/catalogue.js';
import { churchTables, churchRows } from '../../exports/tables.js';
import { dispatchEvents } from '../../webhooks/dispatch.js';
import { processJourneyTriggers } from '../../journeys/triggers.js';
import { commitMoveIn, getMoveIn } from '../imports.js';
import { runMoveInImport } from '../run.js';
import { uploadChurchExport } from './move-in.js';
import { CLEARED, HELD_BACK, NOT_MOVED, PREFIXED_KEYS, UNIQUE_NAMES, movedKey } from './rules.js';
import { remapJson } from './remap.js';
import { planTables, refTarget } from './schema.js';
import { seedEveryTable } from './seed-every-table.js';
import { eventsSettled } from '../../events/log.js';

// A church with rows in every table the export writes is exported, the ZIP moved into a new
// church, and the two compared row by row through the ids' mapping.

const { db } = await freshDatabase();
const { churchA } = await twoChurchesWithContacts(db);
const churchB = (
  await db
    .insertInto('users')
    .values({ username: 'church-new', passwordHash: 'x', churchName: 'New church', email: 'new@x.test' })
    .returning('id')
    .executeTakeFirstOrThrow()
).id;
await db.insertInto('funds').values({ userId: churchB, name: 'General' }).execute();
const template = await db
  .insertInto('marketingTemplates')
  .values({ name: 'Shared', category: 'events', type: 'email' })
  .returning('id')
  .executeTakeFirstOrThrow();
const storage = memoryStorage();
const email: EmailTransport = {
  kind: 'outbox',
  send: () => Promise.resolve({ providerMessageId: 'x' }),
  close: () => Promise.resolve(),
};
const jobs = { send: () => Promise.resolve('job'), cancel: () => Promise.resolve() };

await storage.put(`u${churchA}/a-large.webp`, Buffer.from('large image'), 'image/webp');
const seeded = await seedEveryTable(db, churchA, (ids) => {
  const list = ids.get('contact_lists')?.[0];
  return {
    contacts: [{ first_name: 'Ann', last_name: 'Moved' }, { first_name: 'Abe' }],
    contact_family_links: [{ contact2_id: ids.get('contacts')?.[1] }],
    user_templates: [{ template_id: template.id, package_id: null }],
    deliveries: [{ kind: 'portal', channel: 'email', status: 'pending' }],
    gift_schedules: [{ amount_cents: 500, status: 'active', idempotency_key: `rt-s-${churchA}` }],
    gift_schedule_lines: [{ amount_cents: 500 }],
    sms_keywords: [{ keyword: 'JOIN' }],
    checkin_services: [{ starts_at: '09:00' }],
    checkin_codes: [{ code: 'ABCD', state: 'active' }],
    calendar_discount_codes: [{ code: 'EARLY', percent_off: 10 }],
    calendar_registrations: [{ status: 'confirmed', name: 'Ann', email: 'ann@example.org', seats: 1 }],
    calendar_messages: [{ channels: ['email'], subject: 'Parking', body: 'Park behind the hall' }],
    qr_codes: [{ size: 300, short_code: `rt${churchA}` }],
    uploads: [
      {
        storage_key: `u${churchA}/a-large.webp`,
        thumbnail_key: `u${churchA}/a-thumb.webp`,
        url: `/uploads/u${churchA}/a-large.webp`,
        thumbnail_url: `/uploads/u${churchA}/a-thumb.webp`,
      },
    ],
    landing_pages: [
      {
        slug: `easter-${churchA}`,
        content: { blocks: [{ id: 'f', type: 'form', listId: list, image: `/uploads/u${churchA}/a-large.webp` }] },
      },
    ],
    journey_versions: [{ version: 1, definition: { trigger: { kind: 'list_added', listId: list }, steps: [] } }],
    events: [{ type: 'list.member_added', actor_kind: 'user', payload: { list: { id: list, name: 'Choir' } } }],
    gifts: [
      {
        amount_cents: 2550,
        status: 'completed',
        idempotency_key: `rt-1-${churchA}`,
        stripe_payment_id: `pi_${churchA}`,
      },
      { amount_cents: 1001, status: 'completed', idempotency_key: `rt-2-${churchA}` },
    ],
    journeys: [{ name: 'Welcome', status: 'active', current_version: 1 }],
  };
});

describe('Moving a Lampstand export into a new church', { timeout: 120_000 }, () => {
  it('exports every church table and seeds each one (a new table needs a seed here)', async () => {
    expect(seeded.failed).toEqual([]);
    const tables = await churchTables(db);
    // Row-level security names every church table, those without a church column too (serving
    // positions, a message's opens): each is written, or left out with its reason.
    const { rows: secured } = await sql<{ t: string }>`
      select tablename as t from pg_policies where schemaname = 'public' and policyname = 'church_rows'`.execute(db);
    const written = new Set([...tables.map((t) => t.name), ...Object.keys(SKIPPED_TABLES)]);
    expect(secured.map((r) => r.t).filter((t) => !written.has(t))).toEqual([]);
    const empty: string[] = [];
    for (const t of tables.filter((x) => NOT_MOVED[x.name] === undefined))
      if ((await rowsOf(db, churchA, t.name)).length === 0) empty.push(t.name);
    expect(empty).toEqual([]);
  });

  let importId = 0;
  it('exports the church, and the new church previews and restores the ZIP', async () => {
    const started = await createExport({ db: tenantDb(db, churchA), jobs }, churchA, { requestedBy: churchA });
    await runChurchExport(
      { db, storage, email, config: { publicUrl: 'http://x.test', emailFrom: 'hi@x.test' } },
      started.id,
    );
    const row = await db
      .selectFrom('exports')
      .select('storageKey')
      .where('id', '=', started.id)
      .executeTakeFirstOrThrow();
    const zip = storage.objects.get(row.storageKey!)!;
    // The church that has people already is refused, with words.
    await expect(uploadChurchExport(tenantDb(db, churchA), churchA, { fileName: 'a.zip', zip })).rejects.toThrow(
      /already has contacts.*only into a new church/,
    );
    const b = tenantDb(db, churchB);
    const { id } = await uploadChurchExport(b, churchB, { fileName: 'a.zip', zip, createdBy: churchB });
    importId = id;
    const imp = await getMoveIn(b, churchB, id);
    expect(imp).toMatchObject({ kind: 'church', sourceLabel: 'Lampstand export', status: 'previewed' });
    expect(imp.preview.church!.tables.find((t) => t.name === 'contacts')!.rows).toBe(4);
    expect(await db.selectFrom('contacts').select('id').where('userId', '=', churchB).execute()).toEqual([]);
    await commitMoveIn(b, jobs, churchB, { id, policy: {} });
    await runMoveInImport(db, id, { storage });
    const done = await getMoveIn(b, churchB, id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('completed');
    expect(storage.objects.get(`u${churchB}/a-large.webp`)?.toString()).toBe('large image');
  });

  it('gives the new church every row of the old one, references through the new ids', async () => {
    const read = readExport(await exportZip());
    const plans = await planTables(db, read);
    const maps = new Map<string, Map<number, number>>([['users', new Map([[churchA, churchB]])]]);
    const pairs = new Map<string, [Record<string, unknown>[], Record<string, unknown>[]]>();
    for (const p of plans) {
      const a = await rowsOf(db, churchA, p.name);
      const b = (await rowsOf(db, churchB, p.name)).filter((r) => !(p.name === 'imports' && r.id === importId));
      pairs.set(p.name, [a, b]);
      if (p.hasId) maps.set(p.name, new Map(a.map((r, i) => [Number(r.id), Number(b[i]?.id)])));
    }
    const lookup = (t: string, id: number) => maps.get(t)?.get(id);
    const text = (s: string) => s.split(`/uploads/u${churchA}/`).join(`/uploads/u${churchB}/`);
    for (const p of plans) {
      const [a, b] = pairs.get(p.name)!;
      const expected = p.name === 'church_handle_redirects' ? [] : a;
      expect(b.length, p.name).toBe(expected.length);
      for (const [i, ra] of expected.entries()) {
        const rb = b[i]!;
        const want: Record<string, unknown> = { ...ra };
        HELD_BACK[p.name]?.hold(want, rb.disabled_at instanceof Date ? rb.disabled_at : new Date());
        for (const c of p.columns) {
          const v = want[c.name];
          const got = rb[c.name];
          const where = `${p.name}.${c.name}`;
          if (c.name === 'id' || c.name === 'user_id') continue;
          // Webhooks start after the activity log moved in.
          if (p.name === 'webhook_endpoints' && c.name === 'last_event_id')
            expect(got, where).toBe(Math.max(...pairs.get('events')![1].map((e) => Number(e.id))));
          else if ((CLEARED[p.name] ?? []).includes(c.name)) expect(got, where).toBeNull();
          else if ((PREFIXED_KEYS[p.name] ?? []).includes(c.name))
            expect(got, where).toBe(movedKey(churchB, String(v)));
          else if (UNIQUE_NAMES[p.name] === c.name)
            expect(String(got), where).toMatch(new RegExp(`^${String(v)}(-\\d+)?$`));
          else if (p.name === 'uploads' && c.name.endsWith('_key'))
            expect(got, where).toBe(String(v).replace(`u${churchA}/`, `u${churchB}/`));
          else if (v !== null && refTarget(p, c.name, ra) && typeof v === 'number') {
            const target = refTarget(p, c.name, ra)!;
            expect(got, where).toBe(lookup(target, v) ?? (maps.has(target) || target === 'users' ? null : v));
          } else if (Array.isArray(v) && refTarget(p, c.name, ra))
            expect(got, where).toEqual(v.map((x) => lookup(refTarget(p, c.name, ra)!, Number(x))));
          else if (c.type === 'json' || c.type === 'jsonb')
            expect(got, where).toEqual(
              remapJson(v, { lookup, campaignTable: p.name === 'events' ? 'email_campaigns' : null, text }),
            );
          else if (typeof v === 'string') expect(got, where).toBe(text(v));
          else expect(got, where).toEqual(v);
        }
      }
    }
    for (const t of Object.keys(NOT_MOVED)) expect(await rowsOf(db, churchB, t), t).toEqual([]);
    // Left out of the export, each meeting's JSON for the attendance read is rebuilt by its
    // triggers (migration 0155) as the meetings and attendance are written: the new ids in it.
    const meetings = await rowsOf(db, churchB, 'group_meetings');
    const rows = await db.selectFrom('groupMeetingRows').select('json').where('userId', '=', churchB).execute();
    expect(meetings.length).toBeGreaterThan(0);
    expect(rows.map((r) => JSON.parse(String(r.json)).meetingId).sort()).toEqual(meetings.map((m) => m.id).sort());
  });

  it('keeps the ledger to the cent and sends nothing: no new event, receipt, webhook or journey', async () => {
    const total = async (church: number) =>
      (
        await sql<{
          s: string;
        }>`select coalesce(sum(amount_cents), 0)::text as s from gifts where user_id = ${church} and status = 'completed'`.execute(
          db,
        )
      ).rows[0]!.s;
    expect(await total(churchB)).toBe(await total(churchA));
    expect(await total(churchB)).toBe('3551');
    const events = async (church: number) => (await rowsOf(db, church, 'events')).length;
    expect(await events(churchB)).toBe(await events(churchA));
    const before = await rowsOf(db, churchB, 'webhook_deliveries');
    // Every moved event settled: the readers would see them now if their cursors were not after them.
    await eventsSettled(db);
    await dispatchEvents(db);
    expect(await rowsOf(db, churchB, 'webhook_deliveries')).toHaveLength(before.length);
    expect(await processJourneyTriggers(db, new Date())).toBe(0);
    const journeys = await rowsOf(db, churchB, 'journeys');
    expect(journeys.every((j) => j.status !== 'active')).toBe(true);
    const queued = await sql<{
      n: number;
    }>`select count(*)::int as n from deliveries where user_id = ${churchB} and status in ('pending', 'sending')`.execute(
      db,
    );
    expect(queued.rows[0]!.n).toBe(0);
  });

  it('refuses a ZIP that is not an export, and a broken one, with words', async () => {
    const b = tenantDb(db, churchB);
    await expect(
      uploadChurchExport(b, churchB, { fileName: 'x.zip', zip: zipSync({ 'a.txt': strToU8('hi') }) }),
    ).rejects.toThrow(/not a Lampstand export/);
    await expect(
      uploadChurchExport(b, churchB, { fileName: 'x.zip', zip: new Uint8Array([0x50, 0x4b, 3, 4, 9, 9]) }),
    ).rejects.toThrow(/not a Lampstand export/);
    await expect(
      uploadChurchExport(b, churchB, { fileName: 'x.zip', zip: new Uint8Array(50 * 1024 * 1024 + 1) }),
    ).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
  });
});

async function exportZip(): Promise<Buffer> {
  const row = await db
    .selectFrom('exports')
    .select('storageKey')
    .where('userId', '=', churchA)
    .where('status', '=', 'ready')
    .executeTakeFirstOrThrow();
  return storage.objects.get(row.storageKey!)!;
}

let catalogue: Awaited<ReturnType<typeof churchTables>> | undefined;
async function rowsOf(db: Db, church: number, table: string): Promise<Record<string, unknown>[]> {
  catalogue ??= await churchTables(db);
  const t = catalogue.find((x) => x.name === table);
  if (!t) return [];
  const out: Record<string, unknown>[] = [];
  for await (const chunk of churchRows(db, church, t))
    for (const r of chunk) out.push(Object.fromEntries(t.columns.map((c, i) => [c.name, r[i]])));
  return out;
}
