import { afterAll, describe, expect, it } from 'vitest';
import { createDb, sql, type Db } from '@lampstand/db';
import { acquireExportSlot, CHURCH_LIMITS, EXPORT_BUSY } from '@lampstand/api/server';
import { restRoutes } from '../../src/rest/route-list.js';
import { registerChurch, type HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// The whole address book: GET /api/contacts (a JSON array) and GET /api/contacts/export (CSV) are
// streamed through a cursor, and a church runs at most CHURCH_LIMITS.exports of them at once.

const app = await sharedTestApp();
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const big = await registerChurch(app.url, 'Big Church');
/** Another server process: its own pool on the same database. */
const otherProcess: Db = createDb(app.databaseUrl, { max: 4 });
afterAll(() => otherProcess.destroy());

/** `n` contacts with varied fields, in one statement. */
async function seed(tenantId: number, n: number, opts: { notes?: string } = {}) {
  await sql`
    insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, tags, metadata, date_of_birth,
      email_consent, email_consent_at, email_consent_source)
    select ${tenantId}, 'First' || g, (array['Smith','jones','Nguyen','Ávila','=SUM(A1)'])[1 + g % 5] || g,
      case when g % 7 = 0 then null else 'p' || g || '@example.org' end,
      '0412' || lpad(g::text, 6, '0'), '+61412' || lpad(g::text, 6, '0'),
      case when g % 3 = 0 then array['choir', 'youth'] else array[]::text[] end,
      jsonb_build_object('countryCode', '+61', 'isChurchMember', g % 2 = 0, 'isServiceStaff', g % 5 = 0,
        'staffRole', 'pastor', 'notes', coalesce(${opts.notes ?? null}::text, 'note ' || g), 'city', 'Perth'),
      case when g % 4 = 0 then '1980-01-01'::date + g else null end,
      case when g % 6 = 0 then 'unsubscribed' else 'subscribed' end,
      case when g % 6 = 0 then now() else null end,
      case when g % 6 = 0 then 'import' else null end
    from generate_series(1, ${n}) as g`.execute(app.db);
}

let phone = 0;
/** One contact through the API, with an email and a phone made from its first name. */
async function addContact(
  client: HttpClient,
  fields: { firstName: string; lastName: string; tags?: string[]; metadata: Record<string, unknown> },
) {
  const res = await client.post('/api/contacts', {
    ...fields,
    email: `${fields.firstName.toLowerCase()}@example.org`,
    phone: `0412 999 ${String(++phone).padStart(3, '0')}`,
    metadata: { countryCode: '+61', ...fields.metadata },
  });
  expect(res.status).toBe(201);
}

/** Every contact through the paginated search, 200 at a time. */
async function allPages(client: HttpClient): Promise<unknown[]> {
  const all: unknown[] = [];
  for (let page = 1; ; page++) {
    const res = await client.get(`/api/contacts/search?page=${page}&pageSize=200`);
    expect(res.status).toBe(200);
    all.push(...(res.body.items as unknown[]));
    if (all.length >= res.body.total) return all;
  }
}

const BIG = 20_000;
await seed(grace.user.id, 300);
await seed(hope.user.id, 5);
// Long notes: the JSON answer (about 25 MB) is far larger than what the sockets buffer.
await seed(big.user.id, BIG, { notes: 'n'.repeat(600) });

describe('GET /api/contacts (streamed)', () => {
  it('is a valid JSON array, the same contacts with the same fields in the same order as the pages of contacts.find', async () => {
    await addContact(grace.client, {
      firstName: 'Ann',
      lastName: 'Apostrophe',
      tags: ['a', 'b'],
      metadata: { isServiceStaff: true, staffRole: 'pastor', wwccNumber: 'W1', notes: 'quote " and \\ and é' },
    });
    const res = await grace.client.get('/api/contacts');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const streamed = JSON.parse(res.text) as { lastName: string }[];
    expect(streamed).toHaveLength(301);
    const before = await allPages(grace.client);
    // Identical text: the same keys in the same order, the same values.
    expect(res.text).toBe(JSON.stringify(before));
    expect(streamed.some((c) => c.lastName === 'Apostrophe')).toBe(true);
  });

  it("lists only the church's own contacts, and needs a session", async () => {
    const res = await hope.client.get('/api/contacts');
    expect(res.body).toHaveLength(5);
    const anonymous = await fetch(`${app.url}/api/contacts`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it(`streams ${BIG.toLocaleString('en')} contacts to the end, in name order`, async () => {
    const res = await big.client.get('/api/contacts');
    expect(res.status).toBe(200);
    const all = res.body as { id: number }[];
    expect(all).toHaveLength(BIG);
    const { rows } = await sql<{ id: number }>`select id from contacts where user_id = ${big.user.id}
      order by lower(last_name), lower(first_name), id`.execute(app.db);
    expect(all.map((c) => c.id)).toEqual(rows.map((r) => r.id));
    // 20,000 contacts streamed, parsed and compared: seconds alone, over 30 s on CI's busiest minutes.
  }, 90_000);
});

describe('GET /api/contacts/export (streamed)', () => {
  it('still guards every formula-like cell', async () => {
    await addContact(grace.client, {
      firstName: 'Zoe',
      lastName: 'Zulu',
      metadata: { notes: "-2+3+cmd|' /C calc'!A0" },
    });
    const res = await grace.client.get('/api/contacts/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = res.text.trim().split('\n');
    expect(lines).toHaveLength(1 + 302);
    expect(lines.filter((l) => l.startsWith('First Name,'))).toHaveLength(1);
    const zoeLine = lines.find((l) => l.startsWith('Zoe,Zulu,zoe@example.org'));
    expect(zoeLine).toContain(`'-2+3+cmd|' /C calc'!A0`);
    // The seeded '=SUM(A1)…' last names are prefixed, never bare.
    expect(res.text).toContain(",'=SUM(A1)");
    expect(res.text).not.toMatch(/(^|,)=SUM/m);
  });

  it('writes phones as E.164 and the country code bare: the guard leaves a + followed by digits alone', async () => {
    const add = async (lastName: string, phone: string) => {
      const res = await hope.client.post('/api/contacts', {
        firstName: 'Phone',
        lastName,
        email: `${lastName.toLowerCase()}@example.org`,
        phone,
        metadata: { countryCode: '+61' },
      });
      expect(res.status, res.text).toBe(201);
    };
    await add('Local', '0412 000 111');
    await add('Typed', '+61 412 000 555');
    await add('Overseas', '+64 21 123 4567');
    await add('Formula', '+1+1+cmd');
    const res = await hope.client.get('/api/contacts/export');
    expect(res.status).toBe(200);
    const line = (lastName: string) => res.text.split('\n').find((l) => l.startsWith(`Phone,${lastName},`));
    // First Name, Last Name, Email, Phone Number, Country Code, …
    expect(line('Local')).toMatch(/^Phone,Local,local@example\.org,\+61412000111,\+61,/);
    expect(line('Typed')).toMatch(/^Phone,Typed,typed@example\.org,\+61412000555,\+61,/);
    expect(line('Overseas')).toMatch(/^Phone,Overseas,overseas@example\.org,\+64211234567,\+61,/);
    // Not a possible number: written as typed, and guarded, since it is not a + followed by digits.
    expect(line('Formula')).toMatch(/^Phone,Formula,formula@example\.org,'\+1\+1\+cmd,\+61,/);
    expect(res.text).not.toContain("'+61");
  });

  it(`streams ${BIG.toLocaleString('en')} rows to the end`, async () => {
    const res = await big.client.get('/api/contacts/export');
    expect(res.status).toBe(200);
    expect(res.text.trim().split('\n')).toHaveLength(BIG + 1);
  });
});

describe('exports at once per church', () => {
  /** Hold all but `free` of a church's export slots from another process. */
  async function holdSlots(tenantId: number, free = 0) {
    const held: Awaited<ReturnType<typeof acquireExportSlot>>[] = [];
    for (let i = 0; i < CHURCH_LIMITS.exports - free; i++) held.push(await acquireExportSlot(otherProcess, tenantId));
    return { release: () => Promise.all(held.map((s) => s.release())) };
  }

  it('answers 429 with Retry-After while the church has its exports running; another church is not held up', async () => {
    const slots = await holdSlots(grace.user.id);
    try {
      for (const path of ['/api/contacts', '/api/contacts/export']) {
        const res = await grace.client.get(path);
        expect(res.status).toBe(429);
        expect(res.body).toEqual({ message: EXPORT_BUSY, code: 'TOO_MANY_REQUESTS' });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      expect((await hope.client.get('/api/contacts')).status).toBe(200);
      expect((await hope.client.get('/api/contacts/export')).status).toBe(200);
    } finally {
      await slots.release();
    }
    expect((await grace.client.get('/api/contacts')).status).toBe(200);
  });

  it('a second export while one streams gets 429; the slot is freed when the client leaves', async () => {
    const slots = await holdSlots(big.user.id, 1); // one slot left
    try {
      const cookie = [...big.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const abort = new AbortController();
      const first = await fetch(`${app.url}/api/contacts`, {
        headers: { cookie, 'accept-encoding': 'identity' },
        signal: abort.signal,
      });
      expect(first.status).toBe(200);
      const reader = first.body!.getReader();
      expect((await reader.read()).value?.length).toBeGreaterThan(0); // under way, far from done

      const second = await big.client.get('/api/contacts/export');
      expect(second.status).toBe(429);
      expect(second.body.message).toBe(EXPORT_BUSY);

      abort.abort();
      await reader.cancel().catch(() => {});
      // The server notices the closed connection and releases the slot: the next export runs.
      let status = 0;
      for (let i = 0; i < 100 && status !== 200; i++) {
        status = (await big.client.get('/api/contacts/export?listId=')).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(200);
    } finally {
      await slots.release();
    }
  });

  it('an unknown list (404) and a HEAD request keep no slot', async () => {
    for (let i = 0; i < CHURCH_LIMITS.exports + 1; i++) {
      expect((await hope.client.get('/api/contacts/export?listId=2147483647')).status).toBe(404);
      expect((await hope.client.request('HEAD', '/api/contacts')).status).toBe(200);
    }
    expect((await hope.client.get('/api/contacts/export')).status).toBe(200);
  });
});

describe('streamed routes and row-level security', () => {
  it("each stream gets the church's handle: role lampstand_app, app.tenant_id the church, no bypass", async () => {
    const streamed = restRoutes.filter((r) => r.stream);
    expect(streamed.map((r) => r.path).sort()).toEqual([
      '/api/contact-lists/{id}/contacts',
      '/api/contacts',
      '/api/contacts/export',
    ]);
    const csvRoute = streamed.find((r) => r.format === 'csv')!;
    const original = csvRoute.stream;
    // What the handle a stream is given works as, read on that handle.
    csvRoute.stream = async ({ db }) => {
      const { rows } = await sql<{ who: string; tenant: string; bypass: string }>`
        select current_user as who, current_setting('app.tenant_id', true) as tenant,
          coalesce(current_setting('app.rls_bypass', true), '') as bypass`.execute(db);
      const r = rows[0]!;
      async function* items() {
        yield `${r.who},${r.tenant},${r.bypass}`;
      }
      return { fileName: 'who.csv', items: items(), close: async () => {} };
    };
    try {
      const res = await hope.client.get('/api/contacts/export');
      expect(res.status).toBe(200);
      expect(res.text).toBe(`lampstand_app,${hope.user.id},`);
    } finally {
      csvRoute.stream = original;
    }
  });
});

describe('no whole-table read builds every row in memory', () => {
  it.each(['contacts.list', 'contacts.export', 'contactLists.contacts'])(
    'tRPC %s answers 405 (the REST route streams it) and returns no rows',
    async (path) => {
      const res = await big.client.get(`/trpc/${path}?input=${encodeURIComponent(JSON.stringify({ id: 1 }))}`);
      expect(res.status).toBe(405);
      expect(res.body.error.message).toMatch(/streamed over REST only/);
      expect(res.text.length).toBeLessThan(2_000);
    },
  );

  it(`GET /api/contact-lists/{id}/contacts streams a list of ${BIG.toLocaleString('en')} to the end, in name order`, async () => {
    const list = await big.client.post('/api/contact-lists', { name: 'Everyone' });
    expect(list.status).toBe(201);
    await sql`insert into contacts_in_lists (user_id, list_id, contact_id)
      select user_id, ${list.body.id}, id from contacts where user_id = ${big.user.id}`.execute(app.db);
    const res = await big.client.get(`/api/contact-lists/${list.body.id}/contacts`);
    expect(res.status).toBe(200);
    const all = res.body as { id: number }[];
    expect(all).toHaveLength(BIG);
    const { rows } = await sql<{ id: number }>`select id from contacts where user_id = ${big.user.id}
      order by lower(last_name), lower(first_name), id`.execute(app.db);
    expect(all.map((c) => c.id)).toEqual(rows.map((r) => r.id));
    // Another church's list, or none: 404 before any row.
    expect((await hope.client.get(`/api/contact-lists/${list.body.id}/contacts`)).status).toBe(404);
    expect((await big.client.get('/api/contact-lists/2147483647/contacts')).status).toBe(404);
  }, 90_000);
});
