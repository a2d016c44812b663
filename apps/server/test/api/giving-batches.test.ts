import { describe, expect, it } from 'vitest';
import { eventsSettled } from '@lampstand/api/server';
import { addContact, HttpClient, registerChurch, startTestApp } from '../helpers/test-app.js';

// Batches of cash and checks: lines, a counted total that must match before Commit,
// a committed batch locked (a correction is a new line with its reason); the gifts count as card
// gifts do (completed, donation.succeeded).

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const general = ((await grace.client.get('/api/funds')).body as { id: number }[])[0]!;
const building = (await grace.client.post('/api/funds', { name: 'Building', isPublic: false })).body as { id: number };
const old = (await grace.client.post('/api/funds', { name: 'Old roof' })).body as { id: number };
await grace.client.patch(`/api/funds/${old.id}`, { status: 'archived' });
const hopeFund = ((await hope.client.get('/api/funds')).body as { id: number }[])[0]!;
const ruth = await addContact(grace.client, { firstName: 'Ruth', lastName: 'Moab', email: 'ruth@example.org' });
const hopeContact = await addContact(hope.client, { firstName: 'Other', lastName: 'Person' });

describe('Giving batches', () => {
  it('needs a session', async () => {
    expect((await new HttpClient(app.url).get('/api/giving/batches')).status).toBe(401);
  });

  it('enters a check batch, refuses a commit that does not match the count, commits, then locks it', async () => {
    const created = await grace.client.post('/api/giving/batches', {
      batchDate: '2026-11-22',
      description: 'Sunday offering',
      expectedTotalCents: 17550,
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    expect(created.body).toMatchObject({ status: 'open', lineCount: 0, linesTotalCents: 0 });

    const check = await grace.client.post(`/api/giving/batches/${id}/lines`, {
      contactId: ruth.id,
      fundId: general.id,
      amountCents: 12500,
      method: 'check',
      checkNumber: '1042',
    });
    expect(check.status, check.text).toBe(201);
    const cash = await grace.client.post(`/api/giving/batches/${id}/lines`, {
      fundId: building.id,
      amountCents: 4000,
      method: 'cash',
    });
    expect(cash.body.lines[1]).toMatchObject({ donorName: 'Anonymous cash', fundName: 'Building', status: 'pending' });

    const short = await grace.client.post(`/api/giving/batches/${id}/commit`);
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('The lines add up to $165.00, not the counted $175.50');
    // Pending lines do not count yet.
    expect((await grace.client.get('/api/giving/gifts?status=completed')).body.total).toBe(0);

    await grace.client.post(`/api/giving/batches/${id}/lines`, {
      fundId: general.id,
      amountCents: 1050,
      method: 'other',
    });
    const committed = await grace.client.post(`/api/giving/batches/${id}/commit`);
    expect(committed.status, committed.text).toBe(200);
    expect(committed.body).toMatchObject({ status: 'committed', linesTotalCents: 17550, lineCount: 3 });
    expect((await grace.client.post(`/api/giving/batches/${id}/commit`)).status).toBe(409);

    const gifts = await grace.client.get('/api/giving/gifts?status=completed');
    expect(gifts.body.total).toBe(3);
    const ruthGift = gifts.body.gifts.find((g: { contactId: number | null }) => g.contactId === ruth.id);
    expect(ruthGift).toMatchObject({
      method: 'check',
      amountCents: 12500,
      lines: [{ fundName: 'General', amountCents: 12500 }],
    });
    expect(ruthGift.completedAt).toBe('2026-11-22T12:00:00.000Z');
    await eventsSettled(app.db);
    const events = await grace.client.get('/api/events?types=donation.succeeded');
    expect(events.body.events).toHaveLength(3);
    expect(events.body.events.find((e: { contactId: number | null }) => e.contactId === ruth.id).data).toMatchObject({
      person: { name: 'Ruth Moab' },
      amountCents: 12500,
      funds: [{ fund: { id: general.id, name: 'General' }, amountCents: 12500 }],
    });

    // Locked: no change, no plain line; a correction with its reason counts at once.
    const patch = await grace.client.patch(`/api/giving/batches/${id}`, { description: 'Changed' });
    expect(patch.status).toBe(409);
    const plain = await grace.client.post(`/api/giving/batches/${id}/lines`, {
      fundId: general.id,
      amountCents: 500,
      method: 'cash',
    });
    expect(plain.status).toBe(409);
    expect(plain.body.message).toMatch(/add a correction line with its reason/);
    const correction = await grace.client.post(`/api/giving/batches/${id}/lines`, {
      fundId: general.id,
      amountCents: 500,
      method: 'cash',
      reason: 'Found in the second bag',
    });
    expect(correction.status).toBe(201);
    expect(correction.body.lines[3]).toMatchObject({
      status: 'completed',
      correctionReason: 'Found in the second bag',
    });
    expect((await grace.client.get('/api/giving/gifts?status=completed')).body.total).toBe(4);

    const list = await grace.client.get('/api/giving/batches');
    expect(list.body[0]).toMatchObject({ id, status: 'committed', lineCount: 4, linesTotalCents: 18050 });

    // A bounced check: the line is reversed with its reason; its gift is refunded, off the totals.
    const ruthLine = correction.body.lines[0] as { id: number; donorName: string };
    expect(ruthLine.donorName).toBe('Ruth Moab');
    const reverse = (lineId: number, body: Record<string, unknown>, client = grace.client) =>
      client.post(`/api/giving/batches/${id}/lines/${lineId}/reverse`, body);
    const noReason = await reverse(ruthLine.id, {});
    expect(noReason.status).toBe(400);
    expect(noReason.text).toMatch(/Reason/);
    expect((await reverse(ruthLine.id, { reason: 'x' }, hope.client)).status).toBe(404);
    expect((await reverse(999_999, { reason: 'x' })).status).toBe(404);
    const reversed = await reverse(ruthLine.id, { reason: 'Check bounced' });
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body.lines[0]).toMatchObject({ status: 'refunded', reversalReason: 'Check bounced' });
    expect((await reverse(ruthLine.id, { reason: 'Again' })).status).toBe(409);
    expect((await grace.client.get('/api/giving/gifts?status=completed')).body.total).toBe(3);
    await eventsSettled(app.db);
    const refunded = await grace.client.get('/api/events?types=donation.refunded');
    expect(refunded.body.events).toHaveLength(1);
    expect(refunded.body.events[0]).toMatchObject({ contactId: ruth.id, data: { amountCents: 12500 } });
  });

  it("a line says what the donor received for it and its value; the contact's gifts show it", async () => {
    const b = (await grace.client.post('/api/giving/batches', { batchDate: '2026-11-15', expectedTotalCents: 6000 }))
      .body;
    const res = await grace.client.post(`/api/giving/batches/${b.id}/lines`, {
      contactId: ruth.id,
      fundId: general.id,
      amountCents: 6000,
      method: 'check',
      checkNumber: '77',
      goodsServices: 'Harvest dinner ticket',
      goodsServicesCents: 2500,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.lines[0]).toMatchObject({ goodsServices: 'Harvest dinner ticket', goodsServicesCents: 2500 });
    // A line without goods says so with nulls.
    const plain = await grace.client.post(`/api/giving/batches/${b.id}/lines`, {
      fundId: general.id,
      amountCents: 100,
      method: 'cash',
      goodsServices: '',
    });
    expect(plain.body.lines[1]).toMatchObject({ goodsServices: null, goodsServicesCents: null });
    const gifts = await grace.client.get(`/api/giving/gifts?contactId=${ruth.id}&pageSize=200`);
    const gift = (gifts.body.gifts as { amountCents: number; goodsServices: string | null }[]).find(
      (g) => g.goodsServices,
    );
    expect(gift).toMatchObject({ amountCents: 6000, goodsServices: 'Harvest dinner ticket', goodsServicesCents: 2500 });
  });

  it('refuses bad lines naming the field; another church: 404', async () => {
    const b = (await grace.client.post('/api/giving/batches', { batchDate: '2026-11-29', expectedTotalCents: 0 })).body;
    const line = (o: Record<string, unknown>) =>
      grace.client.post(`/api/giving/batches/${b.id}/lines`, {
        fundId: general.id,
        amountCents: 100,
        method: 'cash',
        ...o,
      });
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ amountCents: 0 }, 400, /Amount must be at least \$0.01/],
      [{ amountCents: 1.5 }, 400, /whole number of cents/],
      [{ method: 'card' }, 400, /Method must be cash, check or other/],
      [{ fundId: old.id }, 400, /Old roof is archived/],
      [{ fundId: hopeFund.id }, 404, /Fund not found/],
      [{ contactId: hopeContact.id }, 404, /Contact not found/],
    ];
    for (const [o, status, message] of cases) {
      const res = await line(o);
      expect(res.status, JSON.stringify(o)).toBe(status);
      expect(res.text, JSON.stringify(o)).toMatch(message);
    }
    // Goods or services: described and valued together, worth at most the gift.
    const goods: [Record<string, unknown>, string, string][] = [
      [{ goodsServices: 'Dinner ticket' }, 'goodsServicesCents', 'Enter the value of the goods or services'],
      [{ goodsServicesCents: 50 }, 'goodsServices', 'Describe the goods or services'],
      [
        { goodsServices: 'Dinner ticket', goodsServicesCents: 101 },
        'goodsServicesCents',
        'The goods or services cannot be worth more than the gift',
      ],
      [
        { goodsServices: 'Dinner ticket', goodsServicesCents: -1 },
        'goodsServicesCents',
        'Value of goods or services must be a whole number of cents',
      ],
      [
        { goodsServices: 'Dinner ticket', goodsServicesCents: 2.5 },
        'goodsServicesCents',
        'Value of goods or services must be a whole number of cents',
      ],
    ];
    for (const [o, field, message] of goods) {
      const res = await line(o);
      expect(res.status, JSON.stringify(o)).toBe(400);
      expect(res.body.issues, JSON.stringify(o)).toContainEqual(expect.objectContaining({ path: field, message }));
    }
    expect((await grace.client.get(`/api/giving/batches/${b.id}`)).body.lineCount).toBe(0);
    expect(
      (await grace.client.post('/api/giving/batches', { batchDate: '2026-13-01', expectedTotalCents: 5 })).text,
    ).toMatch(/Date must be a date/);
    expect(
      (await grace.client.post('/api/giving/batches', { batchDate: '2026-11-01', expectedTotalCents: -5 })).status,
    ).toBe(400);
    expect((await grace.client.post(`/api/giving/batches/${b.id}/commit`)).text).toMatch(/Add at least one line/);
    const patched = await grace.client.patch(`/api/giving/batches/${b.id}`, { expectedTotalCents: 250 });
    expect(patched.body).toMatchObject({ expectedTotalCents: 250, batchDate: '2026-11-29' });

    expect((await hope.client.get(`/api/giving/batches/${b.id}`)).status).toBe(404);
    expect((await hope.client.patch(`/api/giving/batches/${b.id}`, { description: 'x' })).status).toBe(404);
    expect(
      (
        await hope.client.post(`/api/giving/batches/${b.id}/lines`, {
          fundId: hopeFund.id,
          amountCents: 100,
          method: 'cash',
        })
      ).status,
    ).toBe(404);
    expect((await hope.client.post(`/api/giving/batches/${b.id}/commit`)).status).toBe(404);
    expect((await hope.client.get('/api/giving/batches')).body).toEqual([]);
  });
});
