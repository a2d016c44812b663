import { sql } from 'kysely';
import type { Db } from './client.js';
import { APP_ROLE, ownerDb } from './tenancy.js';

/**
 * The role the application works as (tenancy.ts): created when missing, made a role the connecting
 * user may become, and granted reading and writing every table and sequence of the schema — never
 * ownership, so row-level security applies to it. Runs after every migration run (cheap, and it
 * mends a database restored onto a server where the role did not exist). Without the right to
 * create roles it does nothing and the application works as the connecting user (`rlsStatus`
 * says 'no-role'; the server logs it at start). `pnpm db:restore` runs it too: an archive has no grants.
 */
export async function ensureAppRole(db: Db): Promise<void> {
  await ownerDb(db)
    .transaction()
    .execute(async (trx) => {
      // Instances starting together: one at a time (GRANTs on one object at once can fail).
      await sql`select pg_advisory_xact_lock(hashtext('lampstand:app-role'))`.execute(trx);
      await sql
        .raw(
          `do $$
begin
  if not exists (select 1 from pg_roles where rolname = '${APP_ROLE}') then
    begin
      create role ${APP_ROLE} nologin;
    exception
      when duplicate_object or unique_violation then null; -- created meanwhile for another database
      when insufficient_privilege then
        raise notice 'lampstand: no right to create role ${APP_ROLE}; row-level security does not apply';
        return;
    end;
  end if;
  if not pg_has_role(session_user, '${APP_ROLE}', 'member') then
    begin
      execute format('grant ${APP_ROLE} to %I', session_user);
    exception when insufficient_privilege then
      raise notice 'lampstand: no right to grant role ${APP_ROLE}; row-level security does not apply';
      return;
    end;
  end if;
  execute 'grant usage on schema public to ${APP_ROLE}';
  execute 'grant select, insert, update, delete on all tables in schema public to ${APP_ROLE}';
  execute 'grant usage, select, update on all sequences in schema public to ${APP_ROLE}';
end $$`,
        )
        .execute(trx);
    });
}
