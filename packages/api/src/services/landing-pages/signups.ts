import crypto from 'node:crypto';
import { sql, type Db, type VisitSourceKind } from '@lampstand/db';
import { notFound, tooManyRequests } from '../../errors.js';
import type { EmailTransport } from '../../providers/email.js';
import { signupFormSchema, type Block } from '../../schemas/landing-pages.js';
import { toE164 } from '../contacts/phone.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { formatFrom } from '../email-campaigns/channel.js';
import { getPublishedLandingPage } from './public-page.js';
import { escapeHtml } from '../../render/html.js';
import type { NewEvent } from '../../schemas/events.js';
import { personOf, PUBLIC_ACTOR, recordEvents } from '../events/record.js';
import { eventSource } from '../sources/labels.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';

const SIGNUP_RATE_MESSAGE = 'Too many sign-ups from here. Please try again later.';
/** Per visitor (daily hash of address and agent) and per email address. */
const PER_VISITOR_PER_10_MIN = 5;
const PER_EMAIL_PER_HOUR = 3;

/** A confirmation token as it is stored (its SHA-256). */
export const tokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');

export interface SignupDeps {
  db: Db;
  email: EmailTransport;
  publicUrl: string;
  emailFrom: string;
}

export interface SignupResult {
  /** False for a bot caught by the honeypot (answered like a person, nothing stored). */
  stored: boolean;
  churchName: string;
  pageName: string;
}

export function splitName(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/);
  if (parts.length === 1) return { firstName: parts[0]!, lastName: '' };
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts[parts.length - 1]! };
}

/**
 * Where a sign-up is made: a landing page's form, or the church's public home, with the
 * lists it puts the person on and the fields it may keep.
 */
export interface SignupTarget {
  tenantId: number;
  churchName: string;
  /** The landing page, or null on the church's public home. */
  page: { id: number; name: string } | null;
  /** What the confirmation email names ('Easter Sunday', or the church's name). */
  name: string;
  /** The public address the confirmation link lives under ('/p/easter' or '/c/grace-city'). */
  basePath: string;
  /** The consent source once confirmed ('landing-page:easter', 'church-home:grace-city'). */
  consentSource: string;
  block: { id: string; kind: string };
  lists: { id: number; name: string }[];
  fields: { phone: boolean; city: boolean; postalCode: boolean };
}

/**
 * A visitor signs up through a page's form: the church's contact is created (or found by email),
 * put on the form's list, and asked to confirm by email (double opt-in). Email consent becomes
 * 'subscribed' only on confirmation, with the page as its source.
 *
 * Anyone can type a member's email, so a sign-up never overwrites what an existing contact has:
 * what it brought (phone, city, postal code) is kept on the sign-up row; confirmation fills only
 * the contact's empty fields, and staff see a different value beside the sign-up ('Use it').
 * A phone is read in the church's default country.
 */
export async function signUp(
  deps: SignupDeps,
  input: {
    slug: string;
    blockId: string;
    form: unknown;
    source: { kind: VisitSourceKind; value: string | null };
    visitorHash: string;
  },
): Promise<SignupResult> {
  const page = await getPublishedLandingPage(deps.db, { slug: input.slug });
  const block = page.content.blocks.find(
    (b): b is Extract<Block, { type: 'signup' }> => b.type === 'signup' && b.id === input.blockId,
  );
  if (!block) throw notFound('This sign-up form no longer exists.');
  const list = block.listId
    ? await deps.db
        .selectFrom('contactLists')
        .select(['id', 'name'])
        .where('id', '=', block.listId)
        .where('userId', '=', page.userId)
        .executeTakeFirst()
    : undefined;
  return signUpTo(deps, {
    target: {
      tenantId: page.userId,
      churchName: page.churchName,
      page: { id: page.id, name: page.name },
      name: page.name,
      basePath: `/p/${encodeURIComponent(page.slug)}`,
      consentSource: `landing-page:${page.slug}`,
      block: { id: block.id, kind: block.type },
      lists: list ? [list] : [],
      fields: {
        phone: block.fields.includes('phone'),
        city: block.fields.includes('city'),
        postalCode: block.fields.includes('postalCode'),
      },
    },
    form: input.form,
    source: input.source,
    visitorHash: input.visitorHash,
  });
}

/** A sign-up to `target` (see `signUp`): stored, on its lists, and the confirmation email sent. */
export async function signUpTo(
  deps: SignupDeps,
  input: {
    target: SignupTarget;
    form: unknown;
    source: { kind: VisitSourceKind; value: string | null };
    visitorHash: string;
  },
): Promise<SignupResult> {
  const { target } = input;
  const result = { churchName: target.churchName, pageName: target.name };
  const form = signupFormSchema.parse(input.form);
  if (form.website) return { stored: false, ...result };

  const email = form.email.toLowerCase();
  const recent = await deps.db
    .selectFrom('landingPageSignups')
    .select([
      sql<number>`count(*) filter (where visitor_hash = ${input.visitorHash} and created_at > now() - interval '10 minutes')::int`.as(
        'byVisitor',
      ),
      sql<number>`count(*) filter (where lower(email) = ${email} and created_at > now() - interval '1 hour')::int`.as(
        'byEmail',
      ),
    ])
    .where((eb) => eb.or([eb('visitorHash', '=', input.visitorHash), eb(sql`lower(email)`, '=', email)]))
    .where('createdAt', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirstOrThrow();
  if (Number(recent.byVisitor) >= PER_VISITOR_PER_10_MIN || Number(recent.byEmail) >= PER_EMAIL_PER_HOUR)
    throw tooManyRequests(SIGNUP_RATE_MESSAGE);

  const token = crypto.randomBytes(32).toString('base64url');
  const tenantId = target.tenantId;
  const phone = target.fields.phone && form.phone ? form.phone : null;
  const city = target.fields.city && form.city ? form.city : null;
  const postalCode = target.fields.postalCode && form.postalCode ? form.postalCode : null;
  const [countryCode, source] = await Promise.all([
    churchCountryCode(deps.db, tenantId),
    eventSource(deps.db, tenantId, input.source),
  ]);

  await deps.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('contacts')
      .select(['id', 'firstName', 'lastName', 'email', 'phone'])
      .where('userId', '=', tenantId)
      .where('emailLower', '=', email)
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    let contactId: number;
    if (existing) {
      // Only the tag: the contact's own fields are not the visitor's to change (see above).
      contactId = existing.id;
      await trx
        .updateTable('contacts')
        .set({
          tags: sql<
            string[]
          >`case when 'landing-page' = any(tags) then tags else array_append(tags, 'landing-page') end`,
          updatedAt: new Date(),
        })
        .where('id', '=', contactId)
        .where('userId', '=', tenantId)
        .execute();
    } else {
      // Not subscribed until the visitor confirms: no email or text before consent is proven.
      const row = await trx
        .insertInto('contacts')
        .values({
          userId: tenantId,
          ...splitName(form.name),
          email,
          phone,
          phoneE164: toE164(phone, countryCode),
          tags: ['landing-page'],
          metadata: JSON.stringify({
            countryCode,
            ...(city ? { city } : {}),
            ...(postalCode ? { postalCode } : {}),
          }),
          emailConsent: 'unsubscribed',
          emailConsentAt: new Date(),
          emailConsentSource: `${target.consentSource}:pending`,
          smsConsent: 'unsubscribed',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      contactId = row.id;
    }
    const events: NewEvent[] = [];
    const person = personOf(existing ?? { ...splitName(form.name), email, phone });
    if (!existing) events.push({ type: 'contact.created', contactId, payload: { person, via: 'signup' } });
    for (const list of target.lists) {
      const [added] = await trx
        .insertInto('contactsInLists')
        .values({ userId: tenantId, listId: list.id, contactId })
        .onConflict((oc) => oc.columns(['listId', 'contactId']).doNothing())
        .returning('contactId')
        .execute();
      if (added) events.push({ type: 'list.member_added', contactId, payload: { person, list } });
    }
    await trx
      .insertInto('landingPageSignups')
      .values({
        userId: tenantId,
        pageId: target.page?.id ?? null,
        blockId: target.block.id,
        contactId,
        listId: target.lists[0]?.id ?? null,
        name: form.name,
        email,
        phone,
        city,
        postalCode,
        sourceKind: input.source.kind,
        sourceValue: input.source.value,
        visitorHash: input.visitorHash,
        confirmTokenHash: tokenHash(token),
      })
      .execute();
    events.push({
      type: 'signup.received',
      contactId,
      payload: { person, page: target.page, block: target.block, source, confirmationRequired: true },
    });
    await recordEvents(trx, tenantId, events, { actor: PUBLIC_ACTOR });
  });

  const link = `${deps.publicUrl}${target.basePath}/confirm/${token}`;
  const subject = `Please confirm your sign-up: ${target.name}`;
  const where = target.page
    ? {
        html: `${escapeHtml(target.churchName)}'s page “${escapeHtml(target.name)}”`,
        text: `${target.churchName}'s page "${target.name}"`,
      }
    : { html: `${escapeHtml(target.churchName)}'s page`, text: `${target.churchName}'s page` };
  const host = new URL(deps.publicUrl).hostname || 'lampstand.local';
  // Outside the delivery engine: the double opt-in confirmation goes to the person who just
  // submitted the form, inline so a failure is answered there (they can submit again). Not
  // counted against the church's campaign allowance, and not rate-limited per visitor address
  // yet (the form's own limits per visitor cover it).
  // The contact rule: never to a suppressed address (the answer to the form is the same).
  const rule = { channel: 'email' as const, address: email, ...DIRECT_SEND_RULES['signup-confirmation'] };
  if (!(await mayContact(deps.db, tenantId, rule))) return { stored: true, ...result };
  await deps.email.send({
    from: formatFrom(target.churchName, deps.emailFrom),
    onBehalfOf: tenantId,
    to: email,
    subject,
    html:
      `<p>Hello ${escapeHtml(form.name)},</p><p>Thank you for signing up on ${where.html}. ` +
      `Please confirm your email address:</p>` +
      `<p><a href="${escapeHtml(link)}">Confirm my sign-up</a></p>` +
      `<p>If you did not sign up, ignore this email and you will not hear from us.</p>`,
    text:
      `Hello ${form.name},\n\nThank you for signing up on ${where.text}. ` +
      `Please confirm your email address:\n${link}\n\nIf you did not sign up, ignore this email and you will not hear from us.\n`,
    headers: {},
    messageId: `signup-${crypto.randomUUID()}@${host}`,
    meta: { userId: tenantId },
  });
  return { stored: true, ...result };
}
