import { sql, type ContactMetadata, type Db } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import { SIGNUP_FIELD_LABELS, type SIGNUP_FIELDS } from '../../schemas/landing-pages.js';
import { toE164 } from '../contacts/phone.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { findChurchRow } from '../church-rows.js';

// A sign-up never overwrites a field its contact already has (signups.ts): what it brought stays on
// its row, staff see where it differs and may take it.

type SignupField = (typeof SIGNUP_FIELDS)[number];
type SignupValues = Record<SignupField, string | null>;

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What a sign-up brought that differs from its contact's value: a field the contact has empty was
 * (or will be, on confirmation) filled, so only a value against another one is a difference. Phones
 * are compared in E.164 (the contact's country, else the church's default).
 */
export function signupDifferences(
  signup: SignupValues,
  contact: { phone: string | null; phoneE164: string | null; metadata: ContactMetadata },
  churchCountry: string,
): { field: SignupField; value: string; current: string }[] {
  const out: { field: SignupField; value: string; current: string }[] = [];
  if (signup.phone && contact.phone) {
    const e164 = toE164(signup.phone, contact.metadata.countryCode ?? churchCountry);
    const same = e164 && contact.phoneE164 ? e164 === contact.phoneE164 : sameText(signup.phone, contact.phone);
    if (!same) out.push({ field: 'phone', value: signup.phone, current: contact.phone });
  }
  for (const field of ['city', 'postalCode'] as const) {
    const theirs = signup[field];
    const ours = contact.metadata[field];
    if (theirs && ours && !sameText(theirs, ours)) out.push({ field, value: theirs, current: ours });
  }
  return out;
}

/**
 * Staff take a value a sign-up brought onto its contact ('Use it'): the phone (E.164 recomputed in
 * the contact's country, else the church's default), city or postal code. The church's own
 * sign-ups only; SMS consent is not changed (staff editing a phone in the contact form is the same).
 */
export async function applySignupValue(
  db: Db,
  tenantId: number,
  input: { id: number; field: SignupField },
): Promise<{ contactId: number }> {
  return db.transaction().execute(async (trx) => {
    const signup = await findChurchRow(trx, tenantId, {
      table: 'landingPageSignups',
      id: input.id,
      columns: ['contactId', 'phone', 'city', 'postalCode'],
      missing: 'Sign-up not found',
    });
    if (!signup.contactId) throw notFound('The contact of this sign-up no longer exists.');
    const value = signup[input.field];
    if (!value) throw badRequest(`This sign-up has no ${SIGNUP_FIELD_LABELS[input.field]}`, 'field');
    const contact = await findChurchRow(trx, tenantId, {
      table: 'contacts',
      id: signup.contactId,
      columns: ['id', 'metadata'],
      forUpdate: true,
      missing: 'The contact of this sign-up no longer exists.',
    });
    const m: ContactMetadata = contact.metadata ?? {};
    let set;
    if (input.field === 'phone') {
      const countryCode = m.countryCode ?? (await churchCountryCode(trx, tenantId));
      set = {
        phone: value,
        phoneE164: toE164(value, countryCode),
        metadata: sql<string>`metadata || ${JSON.stringify({ countryCode })}::jsonb`,
      };
    } else {
      set = { metadata: sql<string>`metadata || ${JSON.stringify({ [input.field]: value })}::jsonb` };
    }
    await trx
      .updateTable('contacts')
      .set({ ...set, updatedAt: new Date() })
      .where('id', '=', contact.id)
      .where('userId', '=', tenantId)
      .execute();
    return { contactId: contact.id };
  });
}
