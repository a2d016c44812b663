import { afterAll, describe, expect, it } from 'vitest';
import { ownerDb, sql } from '@lampstand/db';
import { HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { demoGift, projectPayload } from '../helpers/show-up.js';

// The mail server refuses the first receipt to flaky@ for a while (451), then accepts it.
let refusals = 0;
const sink = await startSmtpSink({
  rejectTo: (to) => {
    if (to === 'flaky@example.org' && refusals < 1) {
      refusals++;
      return { code: 451, message: 'Try again later' };
    }
    return undefined;
  },
});
afterAll(() => sink.close());
// No Stripe keys and not production: demo mode, through the same webhook handler.
const app = await startTestApp({ emailSmtpUrl: sink.url });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const visitor = new HttpClient(app.url);

async function give(email: string) {
  const project = (await grace.client.post('/api/show-up/projects', projectPayload())).body as {
    id: number;
    title: string;
  };
  const { donationId } = await demoGift(visitor, { projectId: project.id, amount: 12, donorEmail: email });
  return { projectId: project.id, title: project.title, donationId };
}

async function receiptJobs() {
  const { rows } = await sql<{ state: string; retries: number }>`
    select state, retry_count as retries from pgboss.job where name = 'donation-receipt'`.execute(ownerDb(app.db));
  return rows;
}
async function jobState(id: string) {
  const { rows } = await sql<{ state: string }>`select state from pgboss.job where id = ${id}::uuid`.execute(
    ownerDb(app.db),
  );
  return rows[0]?.state;
}

const receiptsTo = (to: string) => sink.messages.filter((m) => m.envelopeTo.includes(to));

describe('the receipt email is a retried pg-boss job', () => {
  it('counts the gift at once; a refused receipt is tried again until the mail server takes it, once', async () => {
    const { projectId, title, donationId } = await give('flaky@example.org');
    // The gift counts whatever the mail server does.
    const p = (await visitor.get(`/api/show-up/projects/${projectId}`)).body;
    expect(p).toMatchObject({ raisedAmount: 12, donationsCount: 1 });

    await expect.poll(() => receiptsTo('flaky@example.org').length, { timeout: 60_000, interval: 250 }).toBe(1);
    expect(refusals).toBe(1);
    const [mail] = receiptsTo('flaky@example.org');
    expect(mail!.parsed.subject).toBe(`Your receipt: $12.00 to ${title}`);
    const row = await app.db
      .selectFrom('gifts')
      .select(['status', 'receiptSentAt'])
      .where('id', '=', donationId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
    expect(row.receiptSentAt).not.toBeNull();

    // The job ran again after the 451 (pg-boss's retry), and only the accepted send was recorded.
    await expect.poll(() => receiptJobs(), { timeout: 10_000 }).toEqual([{ state: 'completed', retries: 1 }]);
  });

  it('a receipt already sent is never sent twice, even if its job runs again', async () => {
    const { donationId } = await give('once@example.org');
    await expect.poll(() => receiptsTo('once@example.org').length, { timeout: 30_000, interval: 250 }).toBe(1);
    const again = await app.deps.jobs.send('donation-receipt', { donationId });
    await expect.poll(() => jobState(again!), { timeout: 20_000 }).toBe('completed');
    expect(receiptsTo('once@example.org')).toHaveLength(1);
  });
});
