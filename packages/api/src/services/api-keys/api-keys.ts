import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '@lampstand/db';
import { forbidden, notFound } from '../../errors.js';
import type { ResolvedSession } from '../auth/session-users.js';
import { toSessionUser } from '../auth/users.js';
import type { SessionUser } from '../../schemas/auth.js';
import type { ApiKeyScope } from '../../schemas/api-keys.js';

/** Tokens look like `lsk_` + 43 base64url characters (256 random bits). */
const API_KEY_PREFIX = 'lsk_';
const PREFIX_SHOWN = API_KEY_PREFIX.length + 6;

const hashApiKey = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export const IMPERSONATING_KEY_REFUSED = 'API keys cannot be created while impersonating a church';

/** The church's keys that still work (or the one `id`), newest first, with who made each. */
function selectKeys(db: Db, tenantId: number) {
  return db
    .selectFrom('apiKeys as k')
    .leftJoin('users as u', 'u.id', 'k.createdByUserId')
    .select([
      'k.id',
      'k.name',
      'k.scope',
      'k.tokenPrefix',
      'k.createdAt',
      'k.lastUsedAt',
      'k.createdByUserId',
      'u.username as createdBy',
    ])
    .where('k.userId', '=', tenantId)
    .where('k.revokedAt', 'is', null);
}

export function listApiKeys(db: Db, tenantId: number) {
  return selectKeys(db, tenantId).orderBy('k.id', 'desc').execute();
}

/**
 * A new key; the token is returned once and only its hash is kept. `actorId` is the account
 * signed in: an administrator impersonating the church is refused, since the key would keep
 * acting as the church after the impersonation ends.
 */
export async function createApiKey(
  db: Db,
  tenantId: number,
  input: { name: string; scope: ApiKeyScope; actorId: number },
) {
  if (input.actorId !== tenantId) throw forbidden(IMPERSONATING_KEY_REFUSED);
  const token = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  const { id } = await db
    .insertInto('apiKeys')
    .values({
      userId: tenantId,
      name: input.name,
      scope: input.scope,
      tokenHash: hashApiKey(token),
      tokenPrefix: token.slice(0, PREFIX_SHOWN),
      createdByUserId: input.actorId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await selectKeys(db, tenantId).where('k.id', '=', id).executeTakeFirstOrThrow();
  return { ...row, token };
}

/** Revoke every working key of the church (a password change does, unless told not to); how many. */
export async function revokeAllApiKeys(db: Db, tenantId: number): Promise<number> {
  const res = await db
    .updateTable('apiKeys')
    .set({ revokedAt: new Date() })
    .where('userId', '=', tenantId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function revokeApiKey(db: Db, tenantId: number, input: { id: number }) {
  const res = await db
    .updateTable('apiKeys')
    .set({ revokedAt: new Date() })
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .where('revokedAt', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound('API key not found');
  return { success: true as const };
}

/** The key a request came with: its id (the actor of the events it causes) and what it may do. */
export interface ApiKeyUse {
  id: number;
  scope: ApiKeyScope;
}

/**
 * The key of a bearer token with the church it acts as (read with the key: one statement), or null
 * for an unknown or revoked token. Marks the key used (at most once a minute, so a busy integrator
 * does not write on every call).
 */
async function findApiKey(db: Db, token: string): Promise<(ApiKeyUse & { user: SessionUser }) | null> {
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return null;
  const hash = hashApiKey(token);
  const row = await db
    .selectFrom('apiKeys as k')
    .innerJoin('users as u', 'u.id', 'k.userId')
    .select(['k.id', 'k.scope', 'k.lastUsedAt', 'u.id as userId', 'u.username', 'u.churchName', 'u.email', 'u.role'])
    .where('k.tokenHash', '=', hash)
    .where('k.revokedAt', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db.updateTable('apiKeys').set({ lastUsedAt: new Date() }).where('id', '=', row.id).execute();
  }
  return { id: row.id, scope: row.scope, user: toSessionUser({ ...row, id: row.userId }) };
}

/**
 * For a request with a bearer token: the signed-in user and the one actions act as (its church),
 * and the key itself (`apiKey`, null for an unknown or revoked token).
 */
export async function resolveApiKeyUsers(
  db: Db,
  token: string,
): Promise<ResolvedSession & { apiKey: ApiKeyUse | null }> {
  const key = await findApiKey(db, token);
  if (key === null) return { user: null, effectiveUser: null, apiKey: null };
  return { user: key.user, effectiveUser: key.user, apiKey: { id: key.id, scope: key.scope } };
}
