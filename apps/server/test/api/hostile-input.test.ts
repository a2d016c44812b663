import { describe, expect, it } from 'vitest';
import { HttpClient, registerChurch } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

// Inputs an attacker sends: ids past PostgreSQL's integer, NUL, lone surrogates, huge strings.
// Each answers 400 with the usual error shape, never a 500.
const app = await sharedTestApp();
const church = await registerChurch(app.url, 'Grace Church');
const contact = await church.client.post('/api/contacts', {
  firstName: 'Ann',
  lastName: 'Lee',
  email: 'ann@example.org',
  phone: '0400000000',
});

function expect400(res: { status: number; body: any }, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(400);
  expect(typeof res.body.message, what).toBe('string');
  expect(res.body.code, what).toBe('BAD_REQUEST');
  expect(JSON.stringify(res.body), what).not.toMatch(/at .*\.(ts|js):\d+/);
}

describe('ids past 2^31-1', () => {
  it.each([
    ['GET', '/api/contacts/2147483648', undefined],
    ['DELETE', '/api/contacts/99999999999999999999', undefined],
    ['POST', '/api/email-campaigns', { name: 'x', content: 'y', listIds: [2147483648] }],
    ['POST', '/api/sms-campaigns', { name: 'x', content: 'y', listIds: ['2147483648'] }],
    ['GET', '/api/contacts/search?listId=2147483648', undefined],
  ] as const)('%s %s → 400', async (method, path, body) => {
    expect400(await church.client.request(method, path, body), `${method} ${path}`);
  });

  it('tRPC contacts.get with a huge id → 400', async () => {
    const res = await church.client.get(
      `/trpc/contacts.get?input=${encodeURIComponent(JSON.stringify({ id: 2 ** 40 }))}`,
    );
    expect(res.status).toBe(400);
  });
});

describe('NUL and lone surrogates', () => {
  it.each([
    ['POST', '/api/contact-lists', { name: 'a\u0000b' }],
    ['POST', '/api/contact-lists', { name: 'Choir', description: 'x\u0000' }],
    ['GET', '/api/contacts/search?search=%00', undefined],
    ['POST', '/api/login', { username: 'a\u0000', password: 'x' }],
    [
      'POST',
      '/api/register',
      { username: 'a\u0000b', password: 'long-enough-pw', churchName: 'C', email: 'a@example.org' },
    ],
    [
      'POST',
      '/api/contacts',
      { firstName: 'A', lastName: 'B', email: 'b@example.org', phone: '0400000000', metadata: { notes: 'x\ud800' } },
    ],
    ['POST', '/api/contacts', { firstName: 'A\u0000', lastName: 'B', email: 'b@example.org', phone: '0400000000' }],
    [
      'POST',
      '/api/contacts',
      { firstName: 'A', lastName: 'B', email: 'b@example.org', phone: '0400000000', tags: ['x\u0000'] },
    ],
    ['POST', '/api/email-campaigns', { name: 'N', subject: 's\u0000', content: 'c' }],
    ['POST', '/api/email-campaigns', { name: 'N', content: 'c\ud800' }],
    ['POST', '/api/sms-campaigns', { name: 'N', content: 'c\u0000' }],
  ] as const)('%s %s %j → 400', async (method, path, body) => {
    expect400(await church.client.request(method, path, body), `${method} ${path}`);
  });

  it('PATCH a contact with NUL in the metadata → 400', async () => {
    expect(contact.status, contact.text).toBe(201);
    const res = await church.client.patch(`/api/contacts/${contact.body.id}`, {
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@example.org',
      phone: '0400000000',
      metadata: { city: 'Syd\u0000ney' },
    });
    expect400(res, 'PATCH contact');
  });
});

describe('huge strings', () => {
  it('a 1 MB username on /api/login → 400, not read into a query', async () => {
    const res = await new HttpClient(app.url).post('/api/login', { username: 'a'.repeat(1_000_000), password: 'x' });
    expect400(res, 'login');
  });
  it('a 5,000-character search → 400', async () => {
    expect400(await church.client.get(`/api/contacts/search?search=${'a'.repeat(5_000)}`), 'search');
  });
});

describe('messages the spec names are unchanged', () => {
  it('an empty list name still reads "List name is required"', async () => {
    const res = await church.client.post('/api/contact-lists', { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('List name is required');
  });
});

describe('an address past the 16 KiB header limit', () => {
  it('→ 431 in the error shape (found by the fuzz test: Fastify answered { error, statusCode })', async () => {
    const res = await church.client.request('GET', `/api/qr-codes/preview?size=${'%61'.repeat(6000)}`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ message: 'The address or headers are too long', code: 'HEADERS_TOO_LARGE' });
  });
});
