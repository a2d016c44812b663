import { HttpClient, registerChurch } from './test-app.js';

type Church = Awaited<ReturnType<typeof registerChurch>>;

/** 'YYYY-MM-DD', `months` before `day`. */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1 - months, Math.min(d, 28)));
  return t.toISOString().slice(0, 10);
}

/** Pair a new station of `church`: a fresh client holding only the station's cookie. */
export async function pairStation(
  baseUrl: string,
  church: Church,
  fields: Record<string, unknown> = { name: 'Lobby', kind: 'manned' },
) {
  const created = await church.client.post('/api/check-in/stations', fields);
  if (created.status !== 201) throw new Error(`station: ${created.status} ${created.text}`);
  const client = new HttpClient(baseUrl);
  const paired = await client.post('/api/check-in/pair', { code: created.body.pairingCode });
  if (paired.status !== 200) throw new Error(`pair: ${paired.status} ${paired.text}`);
  return { client, station: created.body.station as { id: number } };
}

/**
 * A church set up for check-in: a Sunday service, a nursery (0–24 months, capacity `capacity`) and
 * a K–2 room, a family (phone ending 4321) with a 1-year-old and a kindergartner, and a station.
 */
export async function checkinChurch(baseUrl: string, name: string, opts: { capacity?: number } = {}) {
  const church = await registerChurch(baseUrl, name);
  const c = church.client;
  const service = (await c.post('/api/check-in/services', { name: 'Sunday 9:00', weekday: 0, startsAt: '09:00' })).body;
  const nursery = (
    await c.post('/api/check-in/rooms', {
      name: 'Nursery',
      ageMinMonths: 0,
      ageMaxMonths: 24,
      capacity: opts.capacity ?? 20,
      serviceIds: [service.id],
    })
  ).body;
  const k2 = (await c.post('/api/check-in/rooms', { name: 'K–2', gradeMin: 0, gradeMax: 2, serviceIds: [service.id] }))
    .body;
  const { client: station, station: stationRow } = await pairStation(baseUrl, church);
  const today = (await station.get('/api/check-in/station')).body.today as string;
  const made = await c.post('/api/contacts', {
    firstName: 'Ruth',
    lastName: 'Boaz',
    email: `ruth.${church.user.id}@example.org`,
    phone: '(555) 010-4321',
  });
  if (made.status !== 201) throw new Error(`contact: ${made.status} ${made.text}`);
  const parent = made.body;
  const baby = (
    await c.post(`/api/contacts/${parent.id}/children`, { name: 'Obed', dateOfBirth: monthsBefore(today, 13) })
  ).body;
  const kid = (
    await c.post(`/api/contacts/${parent.id}/children`, { name: 'Jesse', dateOfBirth: monthsBefore(today, 70) })
  ).body;
  await c.patch(`/api/check-in/children/${kid.id}`, { grade: 0, allergies: 'Peanuts' });
  return { church, service, nursery, k2, station, stationRow, today, parent, baby, kid };
}
