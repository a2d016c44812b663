import { describe, expect, it } from 'vitest';
import { registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();
const church = await registerChurch(app.url, 'Batch Church');

const contact = (i: number) => ({
  firstName: `Batch${i}`,
  lastName: 'Smith',
  email: `batch${i}@example.org`,
  phone: `412 345 ${String(100 + i).padStart(3, '0')}`,
  metadata: { countryCode: '+61' },
});
const contactCount = async () => ((await church.client.get('/api/contacts')).body as unknown[]).length;

/** A POST batch of `n` contact creations, as httpBatchLink sends it. */
function createBatch(n: number, from: number) {
  const paths = Array.from({ length: n }, () => 'contacts.create').join(',');
  const input = Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i), contact(from + i)]));
  return church.client.post(`/trpc/${paths}?batch=1`, input);
}

describe('tRPC batches', () => {
  it('refuses a batch of 11 calls with a 400 in the API error shape, running none of them', async () => {
    const before = await contactCount();
    const res = await createBatch(11, 0);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'A request may batch at most 10 calls', code: 'BAD_REQUEST' });
    expect(await contactCount()).toBe(before);

    const paths = Array.from({ length: 11 }, () => 'contacts.find').join('%2C');
    const get = await church.client.get(`/trpc/${paths}?batch=1&input=${encodeURIComponent('{}')}`);
    expect(get.status).toBe(400);
    expect(get.body.code).toBe('BAD_REQUEST');
  });

  it('runs a batch of 10', async () => {
    const before = await contactCount();
    const res = await createBatch(10, 100);
    expect(res.status, JSON.stringify(res.body).slice(0, 600)).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(await contactCount()).toBe(before + 10);
    const paths = Array.from({ length: 10 }, () => 'contacts.find').join(',');
    const inputs = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [i, { page: 1, pageSize: 5 }]));
    const get = await church.client.get(`/trpc/${paths}?batch=1&input=${encodeURIComponent(JSON.stringify(inputs))}`);
    expect(get.status).toBe(200);
    expect(get.body).toHaveLength(10);
  });
});
