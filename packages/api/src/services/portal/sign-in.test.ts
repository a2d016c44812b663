import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { createOutboxTransport } from '../../providers/email.js';
import type { SmsMessage, SmsTransport } from '../../providers/sms.js';
import { redeemPortalCode, requestPortalSignIn, type PortalChurch } from './sign-in.js';

const { db } = await freshDatabase();
const user = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
await db.insertInto('churchProfiles').values({ userId: user.id, handle: 'grace-city' }).execute();
const church: PortalChurch = { userId: user.id, churchName: 'Grace', handle: 'grace-city' };
const phone = '+15551230001';
await db
  .insertInto('contacts')
  .values({ userId: user.id, firstName: 'Ann', lastName: 'Lee', email: 'ann@example.org', phone, phoneE164: phone })
  .execute();

const texts: SmsMessage[] = [];
const sms: SmsTransport = { kind: 'outbox', send: async (m) => (texts.push(m), { providerMessageId: 'x' }) };
const deps = {
  db,
  email: createOutboxTransport(db),
  sms,
  publicUrl: 'http://localhost',
  emailFrom: 'Lampstand <no-reply@localhost>',
  smsFrom: '+15005550006',
};

/** Ask for a code by SMS; the code texted. */
async function askForCode(): Promise<string> {
  await requestPortalSignIn(deps, church, { address: phone, clientKey: 'test' });
  return /\d{6}/.exec(texts.at(-1)!.body)![0];
}

describe('portal sign-in codes', () => {
  it('a new code cancels the earlier ones (issue 43 §11)', async () => {
    const first = await askForCode();
    const second = await askForCode();
    expect(second).not.toBe(first);
    expect((await redeemPortalCode(db, church, { address: phone, code: first })).state).toBe('expired');
    const used = await redeemPortalCode(db, church, { address: phone, code: second });
    expect(used.state).toBe('ready');
    expect(used.contactIds).toHaveLength(1);
  });
});
