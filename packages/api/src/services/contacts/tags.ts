import { sql, type Db } from '@lampstand/db';
import type { ContactTags } from '../../schemas/contacts.js';

/** The most tags listed: a picker past this many would be typed into anyway. */
const MAX_TAGS = 1000;

/** Every tag on the church's contacts, once each, A to Z (case-insensitively). */
export async function listContactTags(db: Db, tenantId: number): Promise<ContactTags> {
  const { rows } = await sql<{ tag: string }>`
    select t.tag from (select distinct unnest(tags) as tag from contacts where user_id = ${tenantId}) t
    where t.tag <> ''
    order by lower(t.tag), t.tag
    limit ${MAX_TAGS}`.execute(db);
  return { tags: rows.map((r) => r.tag) };
}
