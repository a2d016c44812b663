import crypto from 'node:crypto';
import { sql, tenantDb, type Db } from '@lampstand/db';
import { newToken, sha256 } from './sign-in.js';

/** A portal session lasts 30 days from sign-in. */
export const PORTAL_SESSION_DAYS = 30;
export const PORTAL_COOKIE = 'lampstand_portal';

export interface PortalSession {
  idHash: string;
  userId: number;
  /** The contacts this session may reach: the person and everyone sharing their address. */
  contactIds: number[];
}

/** A new session for these contacts of the church; the cookie's value (only its hash is stored). */
export async function createPortalSession(db: Db, userId: number, contactIds: number[]): Promise<string> {
  const token = newToken();
  await tenantDb(db, userId)
    .insertInto('portalSessions')
    .values({
      idHash: sha256(token),
      userId,
      contactIds,
      expiresAt: sql<Date>`now() + make_interval(days => ${PORTAL_SESSION_DAYS})`,
    })
    .execute();
  return token;
}

/** The session behind a cookie value, or null (unknown or expired). */
export async function findPortalSession(db: Db, token: string | undefined): Promise<PortalSession | null> {
  if (!token || !/^[\w-]{43}$/.test(token)) return null;
  const row = await db
    .selectFrom('portalSessions')
    .select(['idHash', 'userId', 'contactIds'])
    .where('idHash', '=', sha256(token))
    .where('expiresAt', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row ?? null;
}

export async function endPortalSession(db: Db, s: PortalSession): Promise<void> {
  await tenantDb(db, s.userId).deleteFrom('portalSessions').where('idHash', '=', s.idHash).execute();
}

/** 'Sign out everywhere': every session of the church that reaches any of these people. */
export async function endPortalSessionsEverywhere(db: Db, s: PortalSession): Promise<number> {
  const res = await tenantDb(db, s.userId)
    .deleteFrom('portalSessions')
    .where('userId', '=', s.userId)
    .where(sql<boolean>`contact_ids && ${sql.val(s.contactIds)}::int[]`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** A form's hidden CSRF token: an HMAC of the session, so a page of another site cannot know it. */
export function portalCsrfToken(secret: string, s: PortalSession): string {
  return crypto.createHmac('sha256', secret).update(`portal-csrf:${s.idHash}`).digest('base64url');
}

export function validPortalCsrf(secret: string, s: PortalSession, sent: unknown): boolean {
  if (typeof sent !== 'string') return false;
  const want = Buffer.from(portalCsrfToken(secret, s));
  const got = Buffer.from(sent);
  return want.length === got.length && crypto.timingSafeEqual(want, got);
}
