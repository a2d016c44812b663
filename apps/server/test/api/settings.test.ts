import { describe, expect, it } from 'vitest';
import { HttpClient } from '../helpers/test-app.js';
import { sharedTestApp } from '../helpers/shared-app.js';

const app = await sharedTestApp();

async function register(timeZone?: unknown) {
  const client = new HttpClient(app.url);
  const n = Math.random().toString(36).slice(2, 10);
  const res = await client.post('/api/register', {
    username: `tz_${n}`,
    password: 'correct-horse',
    churchName: `Church ${n}`,
    email: `tz_${n}@example.org`,
    ...(timeZone === undefined ? {} : { timeZone }),
  });
  return { client, res };
}

describe("a church's time zone", () => {
  it("is the browser's at registration, and UTC when none was sent", async () => {
    const chicago = await register('America/Chicago');
    expect(chicago.res.status).toBe(201);
    expect((await chicago.client.get('/api/settings')).body).toMatchObject({ timeZone: 'America/Chicago' });
    const none = await register();
    expect((await none.client.get('/api/settings')).body).toMatchObject({ timeZone: 'UTC', postalAddress: null });
  });

  it('refuses what is not an IANA zone, at registration and in settings', async () => {
    for (const bad of ['Mars/Olympus_Mons', '+02:00', 'CST', '', 'America/../etc', 12]) {
      const { res } = await register(bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.message).toBe('Please choose a valid time zone');
    }
    const { client } = await register('Europe/London');
    const put = await client.put('/api/settings', { timeZone: 'Europe/Londn' });
    expect(put.status).toBe(400);
    expect(put.body.issues[0]).toMatchObject({ path: 'timeZone', message: 'Please choose a valid time zone' });
    expect((await client.get('/api/settings')).body.timeZone).toBe('Europe/London');
  });

  it('changes on its own in settings: the postal address keeps its value, and the other way round', async () => {
    const { client } = await register('Australia/Sydney');
    await client.put('/api/settings', { postalAddress: '1 Church St' });
    const tz = await client.put('/api/settings', { timeZone: 'Asia/Kolkata' });
    expect(tz.status).toBe(200);
    expect(tz.body).toMatchObject({ timeZone: 'Asia/Kolkata', postalAddress: '1 Church St' });
    const addr = await client.put('/api/settings', { postalAddress: '2 Chapel Rd' });
    expect(addr.body).toMatchObject({ timeZone: 'Asia/Kolkata', postalAddress: '2 Chapel Rd' });
    // Campaign times are stored in UTC whatever the zone: the instant sent is the instant kept.
    const at = new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, '+05:30');
    const list = (await client.post('/api/contact-lists', { name: 'Everyone', type: 'email' })).body;
    const c = await client.post('/api/email-campaigns', {
      name: 'Tomorrow',
      subject: 'Hello',
      content: '<p>Hello friends</p>',
      status: 'scheduled',
      listIds: [list.id],
      scheduledFor: at,
    });
    expect(c.status).toBe(201);
    expect(c.body.scheduledFor).toBe(new Date(at).toISOString());
  });
});

describe("a church's activity retention", () => {
  it('is two years until changed; a whole number of days from 30 to 3650, naming the field', async () => {
    const { client } = await register('UTC');
    expect((await client.get('/api/settings')).body.eventRetentionDays).toBe(730);
    const message = 'Keep activity for must be between 30 and 3650 days';
    for (const bad of [29, 3651, 90.5, '90']) {
      const res = await client.put('/api/settings', { eventRetentionDays: bad });
      expect(res.status).toBe(400);
      expect(res.body.issues).toEqual([{ path: 'eventRetentionDays', message }]);
    }
    const saved = await client.put('/api/settings', { eventRetentionDays: 365 });
    expect(saved.body).toMatchObject({ eventRetentionDays: 365, timeZone: 'UTC' });
    // Another setting saved alone keeps it.
    await client.put('/api/settings', { postalAddress: '1 Church St' });
    expect((await client.get('/api/settings')).body.eventRetentionDays).toBe(365);
  });
});

describe("a church's country", () => {
  it('follows the time zone chosen at registration: Chicago is the US, Sydney Australia', async () => {
    const chicago = await register('America/Chicago');
    expect((await chicago.client.get('/api/settings')).body).toMatchObject({
      country: 'US',
      locale: 'en-US',
      defaultCountryCode: '+1',
      firstDayOfWeek: 0,
    });
    // A phone typed without its country code is read in the church's country.
    const us = await chicago.client.post('/api/contacts', {
      firstName: 'Sam',
      lastName: 'Lee',
      email: 'sam@example.org',
      phone: '(217) 555-0109',
    });
    expect(us.status).toBe(201);
    expect(us.body.phoneE164).toBe('+12175550109');
    const sydney = await register('Australia/Sydney');
    expect((await sydney.client.get('/api/settings')).body).toMatchObject({
      country: 'AU',
      locale: 'en-AU',
      defaultCountryCode: '+61',
      firstDayOfWeek: 1,
    });
    // Without a zone the spec's defaults stay: phones in '+61', dates as in the US.
    const none = await register();
    expect((await none.client.get('/api/settings')).body).toMatchObject({
      country: null,
      locale: 'en-US',
      defaultCountryCode: '+61',
    });
  });

  it('can be chosen at registration and changed in settings, by country or by calling code', async () => {
    const client = new HttpClient(app.url);
    const n = Math.random().toString(36).slice(2, 10);
    const res = await client.post('/api/register', {
      username: `cc_${n}`,
      password: 'correct-horse',
      churchName: `Church ${n}`,
      email: `cc_${n}@example.org`,
      timeZone: 'America/Chicago',
      country: 'ca',
    });
    expect(res.status).toBe(201);
    expect((await client.get('/api/settings')).body).toMatchObject({ country: 'CA', locale: 'en-CA' });
    // '+1' in a Canadian church is still Canada; '+44' is the United Kingdom.
    expect((await client.put('/api/settings', { defaultCountryCode: '+1' })).body.country).toBe('CA');
    expect((await client.put('/api/settings', { defaultCountryCode: '+44' })).body).toMatchObject({
      country: 'GB',
      locale: 'en-GB',
    });
    const nz = await client.put('/api/settings', { country: 'NZ' });
    expect(nz.body).toMatchObject({ country: 'NZ', defaultCountryCode: '+64', timeZone: 'America/Chicago' });
    const bad = await client.put('/api/settings', { country: 'XX' });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0]).toMatchObject({ path: 'country', message: 'Please choose a country' });
  });
});
