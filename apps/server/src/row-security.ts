import { rowSecurity, type DatabaseHandle } from '@lampstand/db';
import type { Config } from './config.js';

/**
 * At start: row-level security on but not enforced is refused, never a warning; in
 * production the app must log in as its own role, so that no statement can `reset role` back to
 * the tables' owner. Returns a line to log (RLS=off, or a development database where the app logs
 * in as the owner), or null; throws what stops the start.
 */
export async function checkRowSecurity(
  database: Pick<DatabaseHandle, 'db'>,
  config: Pick<Config, 'nodeEnv'>,
): Promise<string | null> {
  const { status, login } = await rowSecurity(database.db);
  return rowSecurityVerdict(status, login, config.nodeEnv === 'production');
}

export function rowSecurityVerdict(
  status: 'enforced' | 'climbable' | 'not-enforced' | 'off',
  login: string,
  production: boolean,
): string | null {
  switch (status) {
    case 'enforced':
      return null;
    case 'off':
      return '[lampstand] Row-level security is OFF (RLS=off): churches are kept apart by the queries alone';
    case 'not-enforced':
      throw new Error(
        `Row-level security is on but does not apply: the database user '${login}' may not create or become the role lampstand_app, so every church's rows would be open to every query. Grant it (docs/security.md), or set RLS=off knowingly.`,
      );
    case 'climbable': {
      const advice = `the database user '${login}' owns the tables (or bypasses row-level security), so a statement could leave the application's role. Set DATABASE_OWNER_URL to that user for migrations and DATABASE_URL to a login role of the application's own (docs/security.md)`;
      if (production) throw new Error(`In production the app must log in as its own role: ${advice}.`);
      return `[lampstand] Row-level security applies, but ${advice}.`;
    }
  }
}
