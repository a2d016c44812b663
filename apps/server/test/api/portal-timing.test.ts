import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { addContact, registerChurch, startTestApp } from '../helpers/test-app.js';
import { giveHandle, Member } from '../helpers/portal.js';

// A known address was answered in 223–371 ms (the email went out before the answer),
// an unknown one in 13–29 ms. Here the SMTP server accepts connections and never answers: the
// sign-in answer must not wait for it, and both addresses get the same page.
const sockets = new Set<net.Socket>();
const stalled = net.createServer((s) => void sockets.add(s));
await new Promise<void>((r) => stalled.listen(0, '127.0.0.1', r));
const port = (stalled.address() as net.AddressInfo).port;
const app = await startTestApp({ emailSmtpUrl: `smtp://127.0.0.1:${port}?tls=off` });
// Registered after the app's own stop, so it runs first (after-hooks run last-in, first-out): the
// worker's send fails at once instead of waiting out the SMTP timeouts.
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => stalled.close(r));
});
const grace = await registerChurch(app.url, 'Grace Church');
const handle = await giveHandle(app.db, grace.user.id, 'grace-timing');

describe('portal sign-in while the SMTP server is stalled', () => {
  it('answers a known address at once, with the unknown address’s page; the link waits for the worker', async () => {
    const c = await addContact(grace.client, { email: 'known-member@example.org' });
    const visitor = new Member(app.url);
    const known = await visitor.post(`/c/${handle}/me/sign-in`, { address: c.email! });
    const unknown = await visitor.post(`/c/${handle}/me/sign-in`, { address: 'unknown-member@example.org' });
    expect(known.status).toBe(200);
    expect(unknown.text.replace(/\s+/g, ' ')).toBe(known.text.replace(/\s+/g, ' '));
    const queued = await app.db
      .selectFrom('deliveries')
      .select(['address', 'kind'])
      .where('kind', '=', 'portal')
      .execute();
    expect(queued).toEqual([{ address: c.email, kind: 'portal' }]);
  });
});
