import { ownerDb, sql, type Db } from '@lampstand/db';
import { contactTotal } from './counts.js';

// A large church's own trigram index for contact search.
//
// Every church's search text (`contact_search.doc`) is in one GIN index led by the church
// (`contact_search_user_doc_idx`, migration 0099): GIN answers `user_id = $1 and doc like '%smi%'`
// by walking the church's whole list of rows alongside the trigram's, so at 100,000 contacts
// finding the 10,000 matches of 'smi' cost as much again as reading them. A church this large also
// gets an index of its own, `where user_id = <church>` on the same text: the search functions
// (`contact_search_page`, `contact_search_ids`) plan each search for its church, and PostgreSQL
// picks the smaller index, which holds only the church's trigrams. Same rows, same order, same
// exact total: only the way to them changes (`pnpm bench:growth`, docs/benchmarks-history.md).
//
// Made as the tables' owner, at the end of a large contact import and by the nightly maintenance
// (a church that grew one contact at a time); dropped there too once the church is gone or has
// shrunk well below the line. CONCURRENTLY where the connection allows it (not through a pooler in
// transaction mode, where the build briefly holds up other churches' contact writes instead).

/** Contacts from which a church has its own search index. */
export const OWN_SEARCH_INDEX_AT = 20_000;

const NAME = /^contact_search_church_(\d+)_doc_idx$/;
const nameOf = (tenantId: number) => `contact_search_church_${Math.trunc(tenantId)}_doc_idx`;

/** The church's own index and whether it is usable (a failed concurrent build leaves it invalid). */
async function ownIndex(db: Db, tenantId: number): Promise<{ valid: boolean } | null> {
  const { rows } = await sql<{ valid: boolean }>`
    select i.indisvalid as valid from pg_class c join pg_index i on i.indexrelid = c.oid
    where c.relname = ${nameOf(tenantId)} and c.relkind = 'i'`.execute(ownerDb(db));
  return rows[0] ?? null;
}

/** A statement that may not run in a transaction, concurrently where the connection allows it. */
async function runConcurrently(db: Db, statement: (concurrently: string) => string): Promise<void> {
  try {
    await sql.raw(statement('concurrently ')).execute(ownerDb(db));
  } catch (err) {
    // 25001: inside a transaction block (a pooler in transaction mode wraps every statement).
    if ((err as { code?: string }).code !== '25001') throw err;
    await sql.raw(statement('')).execute(ownerDb(db));
  }
}

/**
 * Give the church its own search index once it has OWN_SEARCH_INDEX_AT contacts (or `at`), and
 * merge that index's pending list (recent writes, read by every search until merged). Answers
 * whether the church has a usable index of its own afterwards.
 */
export async function ensureOwnSearchIndex(db: Db, tenantId: number, o: { at?: number } = {}): Promise<boolean> {
  const name = nameOf(tenantId);
  let index = await ownIndex(db, tenantId);
  if (!index && (await contactTotal(ownerDb(db), tenantId)) < (o.at ?? OWN_SEARCH_INDEX_AT)) return false;
  if (index && !index.valid) {
    await runConcurrently(db, (c) => `drop index ${c}if exists ${name}`);
    index = null;
  }
  if (!index) {
    await runConcurrently(
      db,
      (c) =>
        `create index ${c}if not exists ${name} on contact_search using gin (doc gin_trgm_ops) ` +
        `with (gin_pending_list_limit = 256) where user_id = ${Math.trunc(tenantId)}`,
    );
  }
  await sql`select gin_clean_pending_list(${name}::regclass)`.execute(ownerDb(db));
  return (await ownIndex(db, tenantId))?.valid === true;
}

/**
 * The nightly part: every church at OWN_SEARCH_INDEX_AT contacts or more has its own index, and an
 * index whose church is gone, or has fewer than half that, is dropped. Answers what it made and dropped.
 */
export async function maintainOwnSearchIndexes(
  db: Db,
  o: { at?: number } = {},
): Promise<{ made: number[]; dropped: number[] }> {
  const at = o.at ?? OWN_SEARCH_INDEX_AT;
  const owner = ownerDb(db);
  const { rows: sizes } = await sql<{ userId: number; n: number }>`
    select user_id, sum(added - removed)::int as n from contact_counts group by user_id`.execute(owner);
  const size = new Map(sizes.map((r) => [Number(r.userId), Number(r.n)]));
  const { rows: indexes } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_index i on i.indexrelid = c.oid
    where i.indrelid = 'contact_search'::regclass and c.relname like 'contact_search_church_%'`.execute(owner);
  const have = new Set(indexes.map((r) => Number(NAME.exec(r.name)?.[1])).filter((id) => id > 0));
  const made: number[] = [];
  const dropped: number[] = [];
  for (const id of have) {
    if ((size.get(id) ?? 0) >= at / 2) continue;
    await runConcurrently(db, (c) => `drop index ${c}if exists ${nameOf(id)}`);
    dropped.push(id);
  }
  for (const [id, n] of size) {
    if (n < at) continue;
    const before = await ownIndex(db, id);
    if (await ensureOwnSearchIndex(db, id, { at })) {
      if (!before?.valid) made.push(id);
    }
  }
  return { made, dropped };
}
