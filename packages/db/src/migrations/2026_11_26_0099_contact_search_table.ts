import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Contact search at 100,000 contacts (issue 33 §2, docs/benchmarks.md 'Issue 33', docs/security.md
// 'Search under the policies'). A search's cost grows with its matches ('smi' matches 10,000 of a
// church of 100,000): each match found by the trigram index was rechecked by computing
// `lower(first || last || email || phone || e164)` again from the contact's row (lower() of a UTF-8
// text is the most expensive step), and sorted by `lower(last_name), lower(first_name)`, computed
// again for every match; and every match went through the function's result set twice (the count
// and the page).
//
// `contact_search` keeps, for each contact, the lowered text a search looks in and the list's sort
// keys: a narrow row (about half a contact's width, so fewer pages to visit per match) whose text
// is compared as stored. It is written by statement-level triggers on contacts (inserts and updates,
// from the statement's transition table, in the same transaction: a search never sees a contact
// without its text) and removed with the contact (the foreign key cascades). Its trigram index
// replaces the expression index on contacts (migration 0045), whose only reader was the search.
//
// `contact_search_page(church, patterns, page_size, page_offset)` answers the contacts list's
// search in one pass over the matches: the page's ids in the list's order, each with the total
// (one row with a null id when the page is past the end). `contact_search_ids` keeps its signature
// and answers from the same table (the searches combined with a tab or a list). Both answer only
// where the policy would (the rule of migration 0095, unchanged) and name the church in their query.
//
// Both functions read the matches without prefetching (`effective_io_concurrency = 0`): a church's
// search pages are in memory, and asking the buffer table about each page ahead of reading it was
// ~15% of the search's CPU at 10,000 matches.
//
// The index's pending list (GIN's buffer of recent inserts, read by every search until it is merged)
// is kept small, 256 kB instead of 4 MB: after an import it cost every search of every church up to
// ~5 ms. The contact import merges it at its end (`gin_clean_pending_list`, as the owner).
const SEARCH_DOC = (c: string) =>
  `lower(${c}.first_name || ' ' || ${c}.last_name || ' ' || coalesce(${c}.email, '') || ' ' || coalesce(${c}.phone, '') || ' ' || coalesce(${c}.phone_e164, ''))`;

// Who may be answered: the policy's own rule (migration 0095).
const MAY_READ = `
  if church is null or patterns is null or cardinality(patterns) = 0 then
    return;
  end if;
  if not (
    coalesce(current_setting('app.rls_bypass', true), '') = 'on'
    or church = nullif(current_setting('app.tenant_id', true), '')::int
    or exists (select 1 from pg_roles r where r.rolname = invoker and (r.rolsuper or r.rolbypassrls))
    or pg_has_role(invoker, (select c.relowner from pg_class c where c.oid = 'public.contacts'::regclass), 'USAGE')
  ) then
    return;
  end if;
  for i in 1 .. least(cardinality(patterns), 5) loop
    cond := cond || format(' and s.doc like $2[%s]', i);
  end loop;`;

const DECLARE = `declare
  invoker name := case when current_setting('role') = 'none' then session_user else current_setting('role')::name end;
  cond text := '';`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table contact_search (
      contact_id integer primary key,
      user_id integer not null,
      doc text not null,
      last_key text not null,
      first_key text not null,
      foreign key (contact_id, user_id) references contacts (id, user_id) on delete cascade
    )`.execute(db);
  await sql
    .raw(
      `insert into contact_search (contact_id, user_id, doc, last_key, first_key)
       select c.id, c.user_id, ${SEARCH_DOC('c')}, lower(c.last_name), lower(c.first_name) from contacts c
       order by c.user_id, c.id`,
    )
    .execute(db);
  await sql`
    create index contact_search_user_doc_idx on contact_search using gin (user_id, doc gin_trgm_ops)
    with (gin_pending_list_limit = 256)`.execute(db);
  await sql`drop index contacts_user_search_trgm_idx`.execute(db);

  await sql
    .raw(
      `create function contact_search_added() returns trigger language plpgsql as $$
    begin
      insert into contact_search (contact_id, user_id, doc, last_key, first_key)
      select n.id, n.user_id, ${SEARCH_DOC('n')}, lower(n.last_name), lower(n.first_name) from new_rows n;
      return null;
    end $$`,
    )
    .execute(db);
  // Only rows whose text or sort keys changed are written (a consent or metadata update writes none).
  await sql
    .raw(
      `create function contact_search_changed() returns trigger language plpgsql as $$
    begin
      update contact_search s
      set user_id = n.user_id, doc = ${SEARCH_DOC('n')}, last_key = lower(n.last_name), first_key = lower(n.first_name)
      from new_rows n
      join old_rows o on o.id = n.id
      where s.contact_id = n.id
        and (n.first_name, n.last_name, n.email, n.phone, n.phone_e164, n.user_id)
          is distinct from (o.first_name, o.last_name, o.email, o.phone, o.phone_e164, o.user_id);
      return null;
    end $$`,
    )
    .execute(db);
  await sql`
    create trigger contacts_search_in after insert on contacts
    referencing new table as new_rows for each statement execute function contact_search_added()`.execute(db);
  await sql`
    create trigger contacts_search_changed after update on contacts
    referencing old table as old_rows new table as new_rows for each statement execute function contact_search_changed()`.execute(
    db,
  );

  const TENANT = `nullif(current_setting('app.tenant_id', true), '')::int`;
  const rule = `(select current_setting('app.rls_bypass', true) = 'on') or user_id = (select ${TENANT})`;
  await sql.raw(`alter table contact_search enable row level security`).execute(db);
  await sql.raw(`create policy church_rows on contact_search using (${rule}) with check (${rule})`).execute(db);

  await sql
    .raw(
      `create or replace function contact_search_ids(church int, patterns text[]) returns table (id int, last_key text, first_key text)
language plpgsql stable security definer
set search_path = pg_catalog, public, pg_temp
set effective_io_concurrency = 0
as $fn$
${DECLARE}
begin
${MAY_READ}
  return query execute 'select s.contact_id, s.last_key, s.first_key from public.contact_search s where s.user_id = $1' || cond
    using church, patterns;
end
$fn$`,
    )
    .execute(db);
  // One pass over the matches: materialized once, counted, and the page taken by a top-N sort of
  // the stored keys. The last row of a page past the end still carries the total (its id is null).
  // 'rows 25' (a page): the caller's join then reads the page's contacts by id, not the church's.
  await sql
    .raw(
      `create function contact_search_page(church int, patterns text[], page_size int, page_offset int)
returns table (id int, total int)
language plpgsql stable security definer rows 25
set search_path = pg_catalog, public, pg_temp
set effective_io_concurrency = 0
as $fn$
${DECLARE}
begin
${MAY_READ}
  return query execute 'with m as materialized (select s.contact_id, s.last_key, s.first_key from public.contact_search s where s.user_id = $1' || cond || ')
    select p.contact_id, t.n from (select count(*)::int as n from m) t
    left join lateral (select m.contact_id, m.last_key, m.first_key from m
                       order by m.last_key, m.first_key, m.contact_id limit $3 offset $4) p on true
    order by p.last_key, p.first_key, p.contact_id'
    using church, patterns, greatest(page_size, 0), greatest(page_offset, 0);
end
$fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function contact_search_page(int, text[], int, int)`.execute(db);
  await sql`drop trigger contacts_search_in on contacts`.execute(db);
  await sql`drop trigger contacts_search_changed on contacts`.execute(db);
  await sql`drop function contact_search_added()`.execute(db);
  await sql`drop function contact_search_changed()`.execute(db);
  await sql`drop table contact_search`.execute(db);
  await sql
    .raw(
      `create index contacts_user_search_trgm_idx on contacts using gin (user_id, (${SEARCH_DOC('contacts').replace(/contacts\./g, '')}) gin_trgm_ops)`,
    )
    .execute(db);
  // contact_search_ids as migration 0095 made it.
  await sql
    .raw(
      `create or replace function contact_search_ids(church int, patterns text[]) returns table (id int, last_key text, first_key text)
language plpgsql stable security definer
set search_path = pg_catalog, public, pg_temp
as $fn$
${DECLARE}
begin
${MAY_READ.replace("' and s.doc like $2[%s]'", () => `' and ${SEARCH_DOC('c').replace(/'/g, "''")} like $2[%s]'`)}
  return query execute 'select c.id, lower(c.last_name), lower(c.first_name) from public.contacts c where c.user_id = $1' || cond
    using church, patterns;
end
$fn$`,
    )
    .execute(db);
}
