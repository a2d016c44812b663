import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Contact search under row-level security (issue 33 §2, docs/security.md 'Search under the
// policies'). The application's role is subject to the `church_rows` policies, and PostgreSQL only
// lets a condition run before a policy's when its functions are leakproof: `lower` and `LIKE` are
// not, so a search as the application could not use the church's trigram index (migration 0045)
// and read every contact of the church (47 ms at 100,000 against 1.9 ms as the owner).
//
// `contact_search_ids(church, patterns)` runs the search as the owner (SECURITY DEFINER, so the
// index is used) and returns ids only where the policy itself would show the rows: the church
// must be the session's `app.tenant_id`, or `app.rls_bypass` is on, or the caller is not subject
// to row-level security at all (a superuser, a role with BYPASSRLS, the tables' owner or a member
// of it: what PostgreSQL exempts). Otherwise it returns nothing. Its query names the church
// explicitly (`user_id = $1`). The caller still reads the rows under its policies: the function
// only narrows which ids to look at. Up to 5 patterns, each matched with LIKE (all must match);
// run as dynamic SQL so each search is planned with its own patterns (the index needs them). Each
// id comes with the list's sort keys (lower last and first name), so a page of a large result is
// chosen from the function's rows and only that page's contacts are read.
const SEARCH_DOC = `lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '') || ' ' || coalesce(phone_e164, ''))`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create function contact_search_ids(church int, patterns text[]) returns table (id int, last_key text, first_key text)
language plpgsql stable security definer
set search_path = pg_catalog, public, pg_temp
as $fn$
declare
  invoker name := case when current_setting('role') = 'none' then session_user else current_setting('role')::name end;
  cond text := '';
begin
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
    cond := cond || format(' and ${SEARCH_DOC.replace(/'/g, "''")} like $2[%s]', i);
  end loop;
  return query execute 'select c.id, lower(c.last_name), lower(c.first_name) from public.contacts c where c.user_id = $1' || cond
    using church, patterns;
end
$fn$`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function contact_search_ids(int, text[])`.execute(db);
}
