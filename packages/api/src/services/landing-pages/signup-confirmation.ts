import { sql, type ContactMetadata, type Db } from '@lampstand/db';
import { setConsent } from '../contacts/consent.js';
import { toE164 } from '../contacts/phone.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { personOf, PUBLIC_ACTOR, recordEvent } from '../events/record.js';
import { actingAs } from '../events/actor.js';
import { tokenHash } from './signups.js';

/** A sign-up's confirmation link: what it shows, and confirming it (the contact, its lists and consent). */

/** What the confirmation link shows before and after the visitor presses Confirm. */
export async function describeSignupToken(db: Db, token: string) {
  const row = await signupByToken(db, token).select(['s.id', 's.email', 's.confirmedAt']).executeTakeFirst();
  return row ? withPlace(row) : null;
}

/**
 * A sign-up by its confirmation token, with where it was made: its landing page, or the church's
 * public home (no page) under the church's handle.
 */
function signupByToken(db: Db, token: string) {
  return db
    .selectFrom('landingPageSignups as s')
    .leftJoin('landingPages as p', 'p.id', 's.pageId')
    .innerJoin('users as u', 'u.id', 's.userId')
    .leftJoin('churchProfiles as cp', 'cp.userId', 's.userId')
    .select(['p.id as pageId', 'p.name as pageName', 'p.slug', 'u.churchName', 'cp.handle'])
    .where('s.confirmTokenHash', '=', tokenHash(token));
}

/** The page's name and address, or the church's for a sign-up on its public home. */
function withPlace<
  R extends {
    pageId: number | null;
    pageName: string | null;
    slug: string | null;
    churchName: string | null;
    handle: string | null;
  },
>(row: R) {
  const churchName = row.churchName ?? '';
  return {
    ...row,
    churchName,
    pageName: row.pageName ?? churchName,
    backHref: row.slug ? `/p/${encodeURIComponent(row.slug)}` : row.handle ? `/c/${row.handle}` : '/',
    consentSource: row.slug ? `landing-page:${row.slug}` : `church-home:${row.handle ?? ''}`,
  };
}

/**
 * Double opt-in: the contact's email consent becomes 'subscribed', sourced to the page, and the
 * contact's empty fields (phone, city, postal code) are filled from what the sign-up brought. A
 * field the contact already has is never changed here; staff see the difference and choose.
 * SMS consent is not touched: the form never asks for it.
 */
export async function confirmSignup(db: Db, token: string) {
  const found = await signupByToken(db, token)
    .select(['s.id', 's.userId', 's.contactId', 's.email', 's.phone', 's.city', 's.postalCode', 's.confirmedAt'])
    .executeTakeFirst();
  const row = found ? withPlace(found) : null;
  if (!row) return null;
  if (!row.confirmedAt) {
    // One transaction: the consent, the filled fields, the confirmation and its event together.
    await db.transaction().execute(async (trx) => {
      const confirmed = await trx
        .updateTable('landingPageSignups')
        .set({ confirmedAt: new Date() })
        .where('id', '=', row.id)
        .where('confirmedAt', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!confirmed || !row.contactId) return;
      const contact = await trx
        .selectFrom('contacts')
        .select(['id', 'firstName', 'lastName', 'email', 'phone'])
        .where('id', '=', row.contactId)
        .where('userId', '=', row.userId)
        .executeTakeFirst();
      if (!contact) return;
      await setConsent(actingAs(trx, PUBLIC_ACTOR), row.userId, {
        contactId: contact.id,
        channel: 'email',
        status: 'subscribed',
        source: row.consentSource,
        note: 'Confirmed by double opt-in',
      });
      await fillEmptyFields(trx, row.userId, { ...row, contactId: contact.id });
      await recordEvent(
        trx,
        row.userId,
        {
          type: 'signup.confirmed',
          contactId: contact.id,
          payload: { person: personOf(contact), page: row.pageId ? { id: row.pageId, name: row.pageName } : null },
        },
        { actor: PUBLIC_ACTOR },
      );
    });
  }
  return { email: row.email, pageName: row.pageName, churchName: row.churchName, backHref: row.backHref };
}

/** The contact's empty phone, city and postal code take the confirmed sign-up's values. */
async function fillEmptyFields(
  db: Db,
  tenantId: number,
  signup: { contactId: number; phone: string | null; city: string | null; postalCode: string | null },
): Promise<void> {
  if (!signup.phone && !signup.city && !signup.postalCode) return;
  const run = async (trx: Db) => {
    const contact = await trx
      .selectFrom('contacts')
      .select(['id', 'phone', 'metadata'])
      .where('id', '=', signup.contactId)
      .where('userId', '=', tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!contact) return;
    const m: ContactMetadata = contact.metadata ?? {};
    const fill: ContactMetadata = {};
    if (signup.city && !m.city) fill.city = signup.city;
    if (signup.postalCode && !m.postalCode) fill.postalCode = signup.postalCode;
    const takePhone = !!signup.phone && !contact.phone;
    // The contact's own country when it has one stored, else the church's default (stored with it).
    const countryCode = takePhone ? (m.countryCode ?? (await churchCountryCode(trx, tenantId))) : null;
    if (takePhone && !m.countryCode) fill.countryCode = countryCode!;
    if (!takePhone && !Object.keys(fill).length) return;
    await trx
      .updateTable('contacts')
      .set({
        ...(takePhone ? { phone: signup.phone, phoneE164: toE164(signup.phone, countryCode!) } : {}),
        metadata: sql<string>`metadata || ${JSON.stringify(fill)}::jsonb`,
        updatedAt: new Date(),
      })
      .where('id', '=', contact.id)
      .where('userId', '=', tenantId)
      .execute();
  };
  await (db.isTransaction ? run(db) : db.transaction().execute(run));
}
