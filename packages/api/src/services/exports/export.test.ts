import { describe, expect, it } from 'vitest';
import { strFromU8, unzipSync } from 'fflate';
import { sql, tenantDb } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { twoChurchesWithContacts } from '@lampstand/db/test/two-churches';
import type { EmailMessage, EmailTransport } from '../../providers/email.js';
import { memoryStorage } from '../../providers/memory-storage.js';
import { runChurchExport } from './build.js';
import { churchRows, churchTables } from './tables.js';
import { readExport } from './read.js';
import { createExport, expireExports } from './exports.js';
import { SECRET_COLUMNS, SKIPPED_TABLES } from './catalogue.js';

// A seeded church exported and read back: every table's CSV rows equal its rows in the database,
// the README names every file, secrets stay out and the other church's rows never appear.

const { db } = await freshDatabase();
const { churchA, churchB } = await twoChurchesWithContacts(db);

const sent: EmailMessage[] = [];
const email: EmailTransport = {
  kind: 'outbox',
  send: (m) => Promise.resolve(void sent.push(m)).then(() => ({ providerMessageId: 'x' })),
  close: () => Promise.resolve(),
};
const storage = memoryStorage();
const jobs = { send: () => Promise.resolve('job'), cancel: () => Promise.resolve() };

async function seedChurch(tenantId: number) {
  await db.insertInto('contacts').values({ userId: tenantId, firstName: 'Kid', lastName: 'K' }).execute();
  const [ann, abe] = (
    await db.selectFrom('contacts').select('id').where('userId', '=', tenantId).orderBy('id').execute()
  ).map((c) => c.id);
  // A formula-looking name, an empty email (not null) and nested metadata, each written and read back as it is.
  await sql`update contacts set tags = array['choir', 'a,b'], last_name = '=SUM(A1)', email = '',
    metadata = ${JSON.stringify({ notes: '-careful\nnew line', countryCode: '+61' })}::jsonb where id = ${ann!}`.execute(
    db,
  );
  await sql`insert into contact_family_links (user_id, contact1_id, contact2_id, relationship)
    values (${tenantId}, ${ann!}, ${abe!}, 'spouse')`.execute(db);
  const list = await db
    .insertInto('contactLists')
    .values({ userId: tenantId, name: 'Choir, "altos"' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('contactsInLists').values({ userId: tenantId, listId: list.id, contactId: ann! }).execute();
  const fund = await db
    .insertInto('funds')
    .values({ userId: tenantId, name: 'General' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const gift = await db
    .insertInto('gifts')
    .values({
      userId: tenantId,
      amountCents: 2500,
      idempotencyKey: `k${tenantId}`,
      receiptToken: `r${tenantId}`,
      contactId: ann!,
      method: 'cash',
      status: 'completed',
      completedAt: new Date('2026-11-01T10:00:00.123Z'),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('giftLines')
    .values({ userId: tenantId, giftId: gift.id, fundId: fund.id, amountCents: 2500 })
    .execute();
  await db
    .insertInto('landingPages')
    .values({
      userId: tenantId,
      name: 'Easter',
      slug: `easter-${tenantId}`,
      content: JSON.stringify({ blocks: [{ id: 'h', type: 'hero', headline: '-Hello' }] }),
    })
    .execute();
  const journey = await db
    .insertInto('journeys')
    .values({ userId: tenantId, name: 'Welcome' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('journeyVersions')
    .values({ userId: tenantId, journeyId: journey.id, version: 1, definition: JSON.stringify({ steps: [] }) })
    .execute();
  await storage.put(`u${tenantId}/a-large.webp`, Buffer.from('large image'), 'image/webp');
  await storage.put(`u${tenantId}/a-thumb.webp`, Buffer.from('thumb'), 'image/webp');
  await db
    .insertInto('uploads')
    .values({
      userId: tenantId,
      storageKey: `u${tenantId}/a-large.webp`,
      thumbnailKey: `u${tenantId}/a-thumb.webp`,
      url: '/uploads/a',
      thumbnailUrl: '/uploads/b',
      contentType: 'image/webp',
      width: 1,
      height: 1,
      bytes: 11,
    })
    .execute();
}
await seedChurch(churchA);
await seedChurch(churchB);

describe('Export everything', () => {
  it("writes every church table, and reading the ZIP back gives the database's rows", async () => {
    const started = await createExport({ db: tenantDb(db, churchA), jobs }, churchA, { requestedBy: churchA });
    await runChurchExport(
      { db, storage, email, config: { publicUrl: 'http://lampstand.test', emailFrom: 'hi@x.test' } },
      started.id,
    );
    const row = await db.selectFrom('exports').selectAll().where('id', '=', started.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'ready', progress: 100 });
    const zip = storage.objects.get(row.storageKey!)!;
    expect(row.fileSize).toBe(zip.length);

    const read = readExport(zip);
    const church = tenantDb(db, churchA);
    const tables = await churchTables(church);
    const names = tables.map((t) => t.name);
    for (const t of [
      'contacts',
      'contact_family_links',
      'contact_lists',
      'contacts_in_lists',
      'gifts',
      'landing_pages',
      'journeys',
    ])
      expect(names).toContain(t);
    // Every table but `exports` itself, whose row moved on (ready) after it was written.
    for (const table of tables.filter((t) => t.name !== 'exports')) {
      const rows: Record<string, unknown>[] = [];
      for await (const chunk of churchRows(church, churchA, table))
        for (const r of chunk) rows.push(Object.fromEntries(table.columns.map((c, i) => [c.name, normal(r[i])])));
      const exported = read.tables[table.name]!.map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, normal(v)])),
      );
      expect(exported, table.name).toEqual(rows);
    }
    expect(read.tables.contacts!.map((c) => c.first_name)).toEqual(['Ann', 'Abe', 'Kid']);
    expect(read.tables.contacts![0]).toMatchObject({
      last_name: '=SUM(A1)',
      email: '',
      phone: null,
      tags: ['choir', 'a,b'],
      metadata: { notes: '-careful\nnew line', countryCode: '+61' },
    });
    expect(read.tables.gifts).toMatchObject([
      { amount_cents: 2500, completed_at: new Date('2026-11-01T10:00:00.123Z') },
    ]);
    expect(read.tables.contact_lists![0]!.name).toBe('Choir, "altos"');

    // Nested documents and files.
    expect(read.documents['json/landing-pages.json']).toMatchObject([
      { name: 'Easter', content: { blocks: [{ headline: '-Hello' }] } },
    ]);
    expect(read.documents['json/journeys.json']).toMatchObject([
      { name: 'Welcome', versions: [{ version: 1, definition: { steps: [] } }] },
    ]);
    expect(strFromU8(read.files[`files/u${churchA}/a-large.webp`]!)).toBe('large image');
    expect(Object.keys(read.files).some((f) => f.includes(`u${churchB}/`))).toBe(false);

    // The README names every file, and what was left out.
    const entries = Object.keys(unzipSync(zip));
    for (const file of entries.filter((f) => f.startsWith('tables/') || f.startsWith('json/')))
      expect(read.readme).toContain(file);
    for (const skipped of Object.keys(SKIPPED_TABLES)) {
      expect(read.readme).toContain(`\`${skipped}\``);
      expect(read.tables[skipped]).toBeUndefined();
    }
    for (const [table, columns] of Object.entries(SECRET_COLUMNS))
      for (const c of columns) {
        const written = read.manifest.tables.find((t) => t.name === table);
        expect(written?.columns.map((col) => col.name) ?? []).not.toContain(c);
        if (written) expect(written.leftOut).toContain(c);
      }
    expect(read.tables.gifts![0]).not.toHaveProperty('receipt_token');

    // The link went to the login that asked.
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe('a@x.test');
    expect(sent[0]!.text).toMatch(new RegExp(`/api/exports/${started.id}/download\\?token=`));
  });

  it('refuses a second export while one is queued, and a ZIP that is not an export', async () => {
    const scoped = tenantDb(db, churchB);
    await createExport({ db: scoped, jobs }, churchB, { requestedBy: churchB });
    await expect(createExport({ db: scoped, jobs }, churchB, { requestedBy: churchB })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(() => readExport(new Uint8Array([1, 2, 3]))).toThrow(/not a Lampstand export/);
  });

  it('deletes the file and marks the export expired once its 24 hours are over', async () => {
    const ready = await db.selectFrom('exports').selectAll().where('status', '=', 'ready').executeTakeFirstOrThrow();
    expect(storage.objects.has(ready.storageKey!)).toBe(true);
    expect(await expireExports({ db, storage })).toBe(0);
    await sql`update exports set expires_at = now() - interval '1 second' where id = ${ready.id}`.execute(db);
    expect(await expireExports({ db, storage })).toBe(1);
    expect(storage.objects.has(ready.storageKey!)).toBe(false);
    const row = await db
      .selectFrom('exports')
      .select(['status', 'storageKey'])
      .where('id', '=', ready.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'expired', storageKey: null });
  });
});

/** Values compared as JSON sees them (a Date as its ISO text). */
function normal(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v === undefined ? null : v;
}
