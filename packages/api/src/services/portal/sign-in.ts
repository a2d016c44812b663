import crypto from 'node:crypto';
import { sql, tenantDb, type Db } from '@lampstand/db';
import { escapeHtml } from '../../render/html.js';
import { throttle } from '../rate-limit/buckets.js';
import { toE164 } from '../contacts/phone.js';
import { callingCodeOfCountry, churchCountryCode, effectiveCountry } from '../settings/church-settings.js';
import { churchLocale } from '../../shared/locale.js';
import type { JobQueue } from '../../jobs.js';
import { queuePortalMessage } from './messages.js';

/** Links and codes work for 15 minutes, once. */
export const PORTAL_LINK_MINUTES = 15;
const TOO_MANY = 'Too many sign-in attempts. Please try again later.';
/** Per address (per church) and per client: the existing rate-limit buckets. */
const PER_ADDRESS = { limit: 5, windowSeconds: 3600 };
const PER_CLIENT = { limit: 20, windowSeconds: 3600 };
const CODE_TRIES = { limit: 5, windowSeconds: PORTAL_LINK_MINUTES * 60 };

export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');
export const newToken = () => crypto.randomBytes(32).toString('base64url');
const codeHash = (userId: number, address: string, code: string) => sha256(`portal-code:${userId}:${address}:${code}`);

export interface PortalChurch {
  userId: number;
  churchName: string;
  handle: string;
  /** How its pages write dates and phones: its locale ('en-AU') and calling code ('+61'); the US's and '+61' when left out. */
  locale?: string;
  countryCode?: string;
}

export interface PortalMailDeps {
  db: Db;
  /** Where the portal's messages are asked for ('portal-deliver'): the worker sends them. */
  jobs: Pick<JobQueue, 'send'>;
  publicUrl: string;
  /**
   * Whether the platform sends texts (Twilio with its number, or the local outbox without an
   * account): false, no codes by SMS and no phone confirmed.
   */
  canText: boolean;
}

/** The church behind `/c/{handle}` (its current handle only: the old ones redirect). */
export async function churchByHandle(db: Db, handle: string): Promise<PortalChurch | null> {
  if (!/^[a-z0-9-]{3,40}$/.test(handle)) return null;
  const row = await db
    .selectFrom('churchProfiles as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .leftJoin('churchSettings as s', 's.userId', 'p.userId')
    .select(['p.userId', 'p.handle', 'u.churchName', 's.country', 's.timeZone'])
    .where('p.handle', '=', handle)
    .executeTakeFirst();
  if (!row) return null;
  const country = effectiveCountry(row);
  return {
    userId: row.userId,
    handle: row.handle,
    churchName: row.churchName,
    locale: churchLocale(country),
    countryCode: callingCodeOfCountry(country),
  };
}

/** A handle the church gave up less than a year ago: its current handle (the old one redirects). */
export async function renamedHandle(db: Db, handle: string): Promise<string | null> {
  if (!/^[a-z0-9-]{3,40}$/.test(handle)) return null;
  const row = await db
    .selectFrom('churchHandleRedirects as r')
    .innerJoin('churchProfiles as p', 'p.userId', 'r.userId')
    .select('p.handle')
    .where('r.handle', '=', handle)
    .where('r.expiresAt', '>', sql<Date>`now()`)
    .executeTakeFirst();
  return row?.handle ?? null;
}

export const portalPath = (handle: string) => `/c/${encodeURIComponent(handle)}/me`;

/** An email address (lowercased) or a phone in E.164 read in the church's country; null when neither. */
export async function normalizeAddress(
  db: Db,
  userId: number,
  address: string,
): Promise<{ kind: 'email' | 'phone'; value: string } | null> {
  const a = address.trim();
  if (a.includes('@')) return { kind: 'email', value: a.toLowerCase() };
  const e164 = toE164(a, await churchCountryCode(tenantDb(db, userId), userId));
  return e164 ? { kind: 'phone', value: e164 } : null;
}

/** Every contact of the church with this email (any case) or this phone. */
export async function contactsWithAddress(
  db: Db,
  userId: number,
  a: { kind: 'email' | 'phone'; value: string },
): Promise<number[]> {
  const rows = await tenantDb(db, userId)
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', userId)
    .where((eb) => (a.kind === 'email' ? eb(eb.fn('lower', ['email']), '=', a.value) : eb('phoneE164', '=', a.value)))
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * 'Enter your email or mobile number': a one-time link by email, or a 6-digit code by SMS when the
 * church sends SMS. The answer is the same whether the address is known or not: the caller shows
 * 'If we know this address, we have sent you a link'. Throttled per address and per client.
 *
 * Equal work either way: the message is a delivery of the engine, written in one
 * transaction by the same statements for a known and an unknown address (each writes its rows only
 * when a contact has the address), and sent by the worker; the answer never waits for SMTP or SMS.
 */
export async function requestPortalSignIn(
  deps: PortalMailDeps,
  church: PortalChurch,
  input: { address: string; clientKey: string },
): Promise<{ kind: 'email' | 'phone' }> {
  await throttle(deps.db, `portal-sign-in:client:${input.clientKey}`, PER_CLIENT, TOO_MANY);
  const a = await normalizeAddress(deps.db, church.userId, input.address);
  const kind = a?.kind ?? (input.address.includes('@') ? 'email' : 'phone');
  if (!a) return { kind };
  await throttle(deps.db, `portal-sign-in:address:${church.userId}:${a.value}`, PER_ADDRESS, TOO_MANY);
  // A church that sends no SMS sends no codes (the same for every number).
  if (a.kind === 'phone' && !deps.canText) return { kind };
  const known = sql<boolean>`exists (select 1 from contacts c where c.user_id = ${church.userId} and ${
    a.kind === 'email' ? sql`c.email_lower = ${a.value}` : sql`c.phone_e164 = ${a.value}`
  })`;
  const expiresAt = sql<Date>`now() + make_interval(mins => ${PORTAL_LINK_MINUTES})`;
  const addToken = (trx: Db, tokenHash: string, tokenKind: 'link' | 'code') =>
    sql`insert into portal_sign_in_tokens (user_id, token_hash, kind, address, expires_at)
        select ${church.userId}, ${tokenHash}, ${tokenKind}, ${a.value}, ${expiresAt} where ${known}`.execute(trx);
  await tenantDb(deps.db, church.userId)
    .transaction()
    .execute(async (trx) => {
      if (a.kind === 'email') {
        const token = newToken();
        await addToken(trx, sha256(token), 'link');
        await queuePortalMessage(trx, church.userId, signInEmail(deps, church, a.value, token), known);
        return;
      }
      const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
      // A new code cancels the earlier ones of the address: only the newest works.
      await trx
        .updateTable('portalSignInTokens')
        .set({ expiresAt: sql<Date>`least(expires_at, now())` })
        .where('userId', '=', church.userId)
        .where('address', '=', a.value)
        .where('kind', '=', 'code')
        .where('usedAt', 'is', null)
        .execute();
      await addToken(trx, codeHash(church.userId, a.value, code), 'code');
      const text = `${code} is your code to sign in to ${church.churchName}'s members' page. It works for ${PORTAL_LINK_MINUTES} minutes.`;
      await queuePortalMessage(trx, church.userId, { channel: 'sms', address: a.value, text }, known);
    });
  // Asked for either way: for an unknown address the worker finds nothing to send.
  await deps.jobs.send('portal-deliver', { userId: church.userId });
  return { kind };
}

/** The sign-in link's email. */
function signInEmail(deps: Pick<PortalMailDeps, 'publicUrl'>, church: PortalChurch, to: string, token: string) {
  const link = `${deps.publicUrl}${portalPath(church.handle)}/link/${token}`;
  return {
    channel: 'email' as const,
    address: to,
    subject: `Your sign-in link for ${church.churchName}`,
    html:
      `<p>Hello,</p><p>Here is your link to sign in to ${escapeHtml(church.churchName)}'s members' page. ` +
      `It works once, for ${PORTAL_LINK_MINUTES} minutes:</p><p><a href="${escapeHtml(link)}">Sign in</a></p>` +
      `<p>If you did not ask for it, ignore this email.</p>`,
    text:
      `Here is your link to sign in to ${church.churchName}'s members' page. ` +
      `It works once, for ${PORTAL_LINK_MINUTES} minutes:\n${link}\n\nIf you did not ask for it, ignore this email.\n`,
  };
}

export type PortalLinkState = 'ready' | 'used' | 'expired' | 'missing';

async function linkRow(db: Db, userId: number, hash: string) {
  return tenantDb(db, userId)
    .selectFrom('portalSignInTokens')
    .select(['id', 'address', 'kind', 'usedAt', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('userId', '=', userId)
    .where('tokenHash', '=', hash)
    .executeTakeFirst();
}

/** What a sign-in link would do, before the person presses the button (mail scanners only GET). */
export async function describePortalLink(db: Db, church: PortalChurch, token: string): Promise<PortalLinkState> {
  const row = await linkRow(db, church.userId, sha256(token));
  if (!row || row.kind !== 'link') return 'missing';
  if (row.usedAt) return 'used';
  return row.expired ? 'expired' : 'ready';
}

/** Use a token once: the contacts it signs in as (every contact of the church with its address). */
async function useToken(
  db: Db,
  church: PortalChurch,
  hash: string,
  kind: 'link' | 'code',
): Promise<{ state: PortalLinkState; contactIds: number[] }> {
  const row = await linkRow(db, church.userId, hash);
  if (!row || row.kind !== kind) return { state: 'missing', contactIds: [] };
  if (row.usedAt) return { state: 'used', contactIds: [] };
  if (row.expired) return { state: 'expired', contactIds: [] };
  const used = await tenantDb(db, church.userId)
    .updateTable('portalSignInTokens')
    .set({ usedAt: new Date() })
    .where('id', '=', row.id)
    .where('usedAt', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) return { state: 'used', contactIds: [] };
  const contactIds = await contactsWithAddress(db, church.userId, {
    kind: row.address.includes('@') ? 'email' : 'phone',
    value: row.address,
  });
  return { state: contactIds.length ? 'ready' : 'missing', contactIds };
}

export function redeemPortalLink(db: Db, church: PortalChurch, token: string) {
  return useToken(db, church, sha256(token), 'link');
}

/** The SMS code: five tries per address in its 15 minutes. */
export async function redeemPortalCode(db: Db, church: PortalChurch, input: { address: string; code: string }) {
  const a = await normalizeAddress(db, church.userId, input.address);
  if (!a) return { state: 'missing' as const, contactIds: [] };
  await throttle(db, `portal-code:${church.userId}:${a.value}`, CODE_TRIES, TOO_MANY);
  return useToken(db, church, codeHash(church.userId, a.value, input.code), 'code');
}

/**
 * 'Manage your subscriptions' in a campaign email: the delivery's token (as the unsubscribe link's)
 * names one contact of a church with a portal; the link signs in as that contact only.
 */
export async function manageLinkTarget(
  db: Db,
  deliveryToken: string,
): Promise<{ church: PortalChurch; contactId: number } | null> {
  if (!/^[a-f0-9]{64}$/.test(deliveryToken)) return null;
  const row = await db
    .selectFrom('deliveries as d')
    .innerJoin('churchProfiles as p', 'p.userId', 'd.userId')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .select(['d.userId', 'd.contactId', 'p.handle', 'u.churchName'])
    .where('d.token', '=', deliveryToken)
    .executeTakeFirst();
  if (!row?.contactId) return null;
  return { church: { userId: row.userId, handle: row.handle, churchName: row.churchName }, contactId: row.contactId };
}
