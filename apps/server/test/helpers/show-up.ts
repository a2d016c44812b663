import type { HttpClient } from './test-app.js';

/** A valid Show Up project form, with overrides. */
let n = 0;
export function projectPayload(overrides: Record<string, unknown> = {}) {
  n++;
  return {
    title: `Roof repair ${n}`,
    shortDescription: 'Fix the leaking church hall roof before winter.',
    description:
      'The church hall hosts the food bank and youth group every week; its roof leaks badly and needs new sheeting.',
    location: 'Springfield, IL',
    latitude: 39.78,
    longitude: -89.65,
    targetAmount: 5000,
    category: 'construction',
    tags: 'roof, hall',
    organizationName: 'Grace Church',
    contactEmail: 'office@grace.example.org',
    contactPhone: '555-0100',
    website: 'grace.example.org',
    startDate: '2026-11-01',
    endDate: '2027-03-01',
    coverImage: { url: '/uploads/7/large.jpg', thumbnailUrl: '/uploads/7/thumb.jpg' },
    images: ['https://images.example.org/a.jpg'],
    ...overrides,
  };
}

/** Upload a small generated image through POST /api/uploads as the client's church. */
export async function uploadImage(client: HttpClient, baseUrl: string) {
  const { default: sharp } = await import('sharp');
  const data = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 80, g: 110, b: 220 } } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type: 'image/jpeg' }), 'cover.jpg');
  const headers: Record<string, string> = {};
  if (client.cookies.size) headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${baseUrl}/api/uploads`, { method: 'POST', headers, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number; url: string; thumbnailUrl: string };
}

/** A gift completed in demo mode (no Stripe keys): prepare, then the locally signed webhook. */
export async function demoGift(
  visitor: HttpClient,
  o: { projectId: number; amount: number; donorEmail: string; donorName?: string },
): Promise<{ donationId: number }> {
  const prepared = await visitor.post('/api/show-up/donations/prepare', {
    projectId: o.projectId,
    amount: o.amount,
    donorName: o.donorName ?? 'Lydia',
    donorEmail: o.donorEmail,
    isAnonymous: false,
  });
  if (prepared.status !== 200) throw new Error(`prepare failed: ${prepared.status} ${prepared.text}`);
  const done = await visitor.post('/api/show-up/donations/demo-complete', {
    paymentIntent: prepared.body.paymentIntentId,
    clientSecret: prepared.body.clientSecret,
  });
  if (done.status !== 200) throw new Error(`demo payment failed: ${done.status} ${done.text}`);
  return { donationId: prepared.body.donationId as number };
}
