import type { Db } from '@lampstand/db';
import type { smsKeyword } from '../../shared/sms.js';
import { setConsent } from '../contacts/consent.js';
import type { Route, StoredText } from './inbound-routing.js';

/** A text's reserved word (STOP, START, HELP and their other words), if it is one. */
export type Reserved = ReturnType<typeof smsKeyword>;

/** STOP/START: the church owning the number, or every church with the sender as a contact. HELP changes nothing. */
export async function applyReserved(
  trx: Db,
  text: StoredText,
  reserved: NonNullable<Reserved>,
  route: Route,
): Promise<number[]> {
  let q = trx.selectFrom('contacts').select(['id', 'userId']).where('phoneE164', '=', text.from);
  if (route.own) q = q.where('userId', 'in', route.churches);
  const contacts = await q.orderBy('userId').orderBy('id').execute();
  for (const c of contacts) {
    if (reserved === 'help') continue;
    await setConsent(trx, c.userId, {
      contactId: c.id,
      channel: 'sms',
      status: reserved === 'stop' ? 'unsubscribed' : 'subscribed',
      source: 'sms keyword',
      note: text.body.trim().toUpperCase(),
    });
  }
  return [...new Set(contacts.map((c) => c.userId))];
}

/** The answer to STOP, START or HELP, naming the churches it concerns. */
export async function reservedReply(trx: Db, reserved: NonNullable<Reserved>, churchIds: number[]): Promise<string> {
  const names = churchIds.length
    ? (await trx.selectFrom('users').select('churchName').where('id', 'in', churchIds).orderBy('id').execute())
        .map((u) => u.churchName)
        .join(', ')
    : 'this number';
  return reserved === 'stop'
    ? `You are unsubscribed from ${names} texts and will not receive more. Reply START to resubscribe.`
    : reserved === 'start'
      ? `You are subscribed again to ${names} texts. Reply STOP to unsubscribe.`
      : `Texts from ${names}. Reply STOP to unsubscribe, START to subscribe again.`;
}
