import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import { sendingCampaignWith } from '../delivery/test-deps.js';
import { recordClick, recordOpen } from './tracking.js';

const { db } = await freshDatabase({ poolMax: 6 });
const church = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
const secret = 'test-secret';

/** A sent delivery of a campaign, with a token as the tracking links carry it. */
async function sentDelivery(): Promise<{ id: number; token: string }> {
  const campaignId = await sendingCampaignWith(db, church.id, 1);
  const token = crypto.randomBytes(32).toString('hex');
  return db
    .updateTable('deliveries')
    .set({ token, status: 'sent', sentAt: new Date() })
    .where('campaignId', '=', campaignId)
    .returning(['id', 'token'])
    .executeTakeFirstOrThrow();
}

const rows = (deliveryId: number, type: 'open' | 'click') =>
  db.selectFrom('deliveryEvents').select('id').where('deliveryId', '=', deliveryId).where('type', '=', type).execute();

const events = (deliveryId: number, type: string) =>
  db
    .selectFrom('events')
    .select('payload')
    .where('userId', '=', church.id)
    .where('type', '=', type)
    .execute()
    .then((all) => all.filter((e) => (e.payload as { deliveryId?: number }).deliveryId === deliveryId));

describe('opens and clicks: the event log, with one statistics row per delivery', () => {
  it('concurrent opens: exactly one is the first (one email.opened, one open row)', async () => {
    const d = await sentDelivery();
    await Promise.all(Array.from({ length: 6 }, () => recordOpen(db, d.token)));
    await recordOpen(db, d.token);
    expect(await rows(d.id, 'open')).toHaveLength(1);
    expect(await events(d.id, 'email.opened')).toHaveLength(1);
  });

  it('every click is an email.clicked event; the statistics keep one click row', async () => {
    const d = await sentDelivery();
    const url = 'https://example.org/news';
    const signature = crypto.createHmac('sha256', secret).update(`${d.token}\n${url}`).digest('base64url').slice(0, 32);
    expect(await recordClick(db, secret, d.token, url, signature)).toBe(url);
    expect(await recordClick(db, secret, d.token, url, signature)).toBe(url);
    expect(await rows(d.id, 'click')).toHaveLength(1);
    const clicked = await events(d.id, 'email.clicked');
    expect(clicked.map((e) => (e.payload as { url: string }).url)).toEqual([url, url]);
  });
});
