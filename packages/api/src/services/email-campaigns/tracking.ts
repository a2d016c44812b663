import type { Db } from '@lampstand/db';
import { setConsent } from '../contacts/consent.js';
import { verifyLink } from './render.js';
import { recordEvent } from '../events/record.js';
import { clickedEvent, deliveryEvent, findDeliveryRef } from '../delivery/events.js';

async function findDelivery(db: Db, token: string) {
  if (!/^[a-f0-9]{64}$/.test(token)) return undefined;
  return db
    .selectFrom('deliveries')
    .select(['id', 'userId', 'contactId', 'channel', 'campaignId'])
    .where('token', '=', token)
    .executeTakeFirst();
}

/**
 * The statistics' row of delivery `id` for `type` (opened, clicked, unsubscribed at least once):
 * true when this insert wrote it, i.e. this is the first. Race-free: the unique index
 * `delivery_events_once` (migration 0106) lets one of two concurrent inserts win.
 */
async function firstOf(trx: Db, id: number, type: 'open' | 'click' | 'unsubscribe'): Promise<boolean> {
  const row = await trx
    .insertInto('deliveryEvents')
    .values({ deliveryId: id, type, url: null })
    .onConflict((oc) =>
      oc.columns(['deliveryId', 'type']).where('type', 'in', ['open', 'click', 'unsubscribe']).doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return !!row;
}

/**
 * The open pixel was loaded: the first load is the person's `email.opened` (a mail client loading
 * the image again is not news), with the delivery's 'open' row for the statistics.
 */
export async function recordOpen(db: Db, token: string): Promise<void> {
  const d = await findDelivery(db, token);
  if (!d) return;
  await db.transaction().execute(async (trx) => {
    if (!(await firstOf(trx, d.id, 'open'))) return;
    const ref = await findDeliveryRef(trx, d.id);
    if (ref) await recordEvent(trx, d.userId, deliveryEvent('email.opened', ref));
  });
}

/** A tracked link: the destination when the signature matches, else null (no open redirect). */
export async function recordClick(
  db: Db,
  secret: string,
  token: string,
  url: string,
  signature: string,
): Promise<string | null> {
  if (!/^https?:\/\//i.test(url) || !verifyLink(secret, token, url, signature)) return null;
  const d = await findDelivery(db, token);
  if (!d) return url;
  // Every click is an `email.clicked` event (with its address); the statistics keep one 'click'
  // row per delivery.
  await db.transaction().execute(async (trx) => {
    await firstOf(trx, d.id, 'click');
    const ref = await findDeliveryRef(trx, d.id);
    if (ref) await recordEvent(trx, d.userId, clickedEvent(ref, url));
  });
  return url;
}

export interface UnsubscribeTarget {
  churchName: string;
  email: string;
  alreadyUnsubscribed: boolean;
}

export async function describeUnsubscribe(db: Db, token: string): Promise<UnsubscribeTarget | null> {
  const d = await findDelivery(db, token);
  if (!d) return null;
  const row = await db
    .selectFrom('deliveries as d')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .leftJoin('contacts as c', 'c.id', 'd.contactId')
    .select(['u.churchName', 'd.address', 'c.emailConsent'])
    .where('d.id', '=', d.id)
    .executeTakeFirstOrThrow();
  return { churchName: row.churchName, email: row.address, alreadyUnsubscribed: row.emailConsent === 'unsubscribed' };
}

/** Link or RFC 8058 one-click POST: the contact's email consent becomes unsubscribed; no login. */
export async function unsubscribeByToken(
  db: Db,
  token: string,
  how: 'link' | 'one-click',
): Promise<UnsubscribeTarget | null> {
  const d = await findDelivery(db, token);
  if (!d) return null;
  const target = await describeUnsubscribe(db, token);
  // Every contact of the church with this address: the person behind it asked to stop.
  const sameAddress = await db
    .selectFrom('contacts')
    .select('id')
    .where('userId', '=', d.userId)
    .where((eb) =>
      eb.or([
        eb('id', '=', d.contactId ?? -1),
        eb(eb.fn('lower', ['email']), '=', (target?.email ?? '').toLowerCase()),
      ]),
    )
    .execute();
  for (const c of sameAddress) {
    await setConsent(db, d.userId, {
      contactId: c.id,
      channel: 'email',
      status: 'unsubscribed',
      source: how === 'one-click' ? 'one-click unsubscribe' : 'unsubscribe link',
      note: `Email campaign ${d.campaignId}`,
    });
  }
  await db.transaction().execute(async (trx) => {
    if (!(await firstOf(trx, d.id, 'unsubscribe'))) return;
    const ref = await findDeliveryRef(trx, d.id);
    if (ref) await recordEvent(trx, d.userId, deliveryEvent('email.unsubscribed', ref));
  });
  return target ? { ...target, alreadyUnsubscribed: true } : null;
}
