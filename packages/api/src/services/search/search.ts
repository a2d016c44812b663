import { sql, type Db } from '@lampstand/db';
import { SEARCH_PER_KIND, type SearchResult } from '../../schemas/search.js';
import { findContacts } from '../contacts/contacts.js';

/** Fewer letters than this find nothing: one letter matches half the church. */
const MIN_LENGTH = 2;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface NamedRow {
  kind: SearchResult['kind'];
  id: number;
  name: string;
  note: string | null;
  status: string | null;
  date: string | null;
}

/**
 * The church's lists, campaigns, pages, plans and songs whose name holds every word typed, at most
 * SEARCH_PER_KIND of each, names starting with what was typed first: one statement. Each branch
 * reads the church's own rows (its `user_id` in the statement as well as under the row-level
 * policy); those tables hold hundreds of rows a church, not the contacts' hundreds of thousands.
 */
function namedThings(db: Db, tenantId: number, patterns: string[], prefix: string) {
  const like = (column: string) => sql`lower(${sql.ref(column)}) like all (${patterns}::text[])`;
  const first = (column: string) => sql`(lower(${sql.ref(column)}) like ${prefix}) desc`;
  const n = SEARCH_PER_KIND;
  return sql<NamedRow>`
    (select 'list' as kind, id, name, null as note, null as status, null as date
       from contact_lists where user_id = ${tenantId} and ${like('name')}
       order by ${first('name')}, lower(name), id limit ${n})
    union all
    (select 'emailCampaign', id, name, subject, status, null
       from email_campaigns where user_id = ${tenantId} and ${like('name')}
       order by ${first('name')}, created_at desc, id desc limit ${n})
    union all
    (select 'smsCampaign', id, name, null, status, null
       from sms_campaigns where user_id = ${tenantId} and ${like('name')}
       order by ${first('name')}, created_at desc, id desc limit ${n})
    union all
    (select 'landingPage', id, name, '/p/' || slug, case when published then 'published' else 'draft' end, null
       from landing_pages where user_id = ${tenantId} and ${like('name')}
       order by ${first('name')}, lower(name), id limit ${n})
    union all
    (select 'plan', id, title, null, status, to_char(date, 'YYYY-MM-DD')
       from service_plans where user_id = ${tenantId} and ${like('title')}
       order by ${first('title')}, date desc, id desc limit ${n})
    union all
    (select 'song', id, title, artist, null, null
       from songs where user_id = ${tenantId} and ${like('title')}
       order by ${first('title')}, lower(title), id limit ${n})`.execute(db);
}

/**
 * The header's search: people by name, email or phone (the contacts list's own search, with its
 * index), then lists, email and SMS campaigns, landing pages, service plans and songs by name;
 * at most SEARCH_PER_KIND of each, in the order of SEARCH_KINDS.
 */
export async function searchEverything(db: Db, tenantId: number, input: { q: string }) {
  const q = input.q.trim().toLowerCase();
  if (q.length < MIN_LENGTH) return { results: [] };
  const words = q.split(/\s+/).filter(Boolean).slice(0, 5);
  const patterns = words.map((w) => `%${escapeLike(w)}%`);
  const people = await findContacts(db, tenantId, { search: q, tab: 'all', page: 1, pageSize: SEARCH_PER_KIND });
  const named = await namedThings(db, tenantId, patterns, `${escapeLike(q)}%`);
  const results: SearchResult[] = [
    ...people.items.map((c) => ({
      kind: 'person' as const,
      id: c.id,
      name: `${c.firstName} ${c.lastName}`.trim(),
      note: c.email || c.phone || null,
      status: null,
      date: null,
    })),
    ...named.rows.map((r) => ({ ...r, id: Number(r.id) })),
  ];
  return { results };
}
