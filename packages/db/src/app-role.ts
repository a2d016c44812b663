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
export async function ensureAppRole(
  db: Db,
  options: {
    /** Let the role log in with this password (the embedded default: the app logs in as it). */
    loginPassword?: string;
    /** The application's login (DATABASE_URL's user) when it is another role: made a member of it. */
    appLogin?: string;
  } = {},
): Promise<void> {
  const { loginPassword, appLogin } = options;
  if (loginPassword !== undefined && !/^[A-Za-z0-9_-]{16,200}$/.test(loginPassword)) {
    throw new Error('The application role password must be 16 or more letters, digits, - or _');
  }
  if (appLogin !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(appLogin)) {
    throw new Error(`Unexpected database user name ${JSON.stringify(appLogin)}`);
  }
  // Both checked above: letters, digits, - and _ only, so they are safe inside the literals below.
  const login = loginPassword ? `execute 'alter role ${APP_ROLE} login password ''${loginPassword}''';` : '';
  const member =
    appLogin && appLogin !== APP_ROLE
      ? `if not pg_has_role('${appLogin}', '${APP_ROLE}', 'member') then execute 'grant ${APP_ROLE} to ${appLogin}'; end if;`
      : '';
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
  ${login}
  ${member}
  execute 'grant usage on schema public to ${APP_ROLE}';
  execute 'grant select, insert, update, delete on all tables in schema public to ${APP_ROLE}';
  execute 'grant usage, select, update on all sequences in schema public to ${APP_ROLE}';
end $$`,
        )
        .execute(trx);
    });
}
