import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { HttpClient } from './test-app.js';

/** Settings → Move in over HTTP, as the imports tests drive it: upload a fixture, commit, read contacts. */

const here = path.dirname(fileURLToPath(import.meta.url));

/** A file of test/fixtures/move-in. */
export const moveInFixture = (name: string) => fs.readFileSync(path.join(here, '../fixtures/move-in', name));

export function moveIn(appUrl: string) {
  /** POST /api/imports as multipart/form-data, as an integrator or the browser would send it. */
  async function upload(client: HttpClient, data: Buffer, name: string, fields: Record<string, string> = {}) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type: 'text/csv' }), name);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    const res = await fetch(`${appUrl}/api/imports`, { method: 'POST', headers: signedIn(client), body: form });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Confirm an import and wait for its background job: it must complete without an error. */
  async function committed(client: HttpClient, id: number, policy: Record<string, string> = {}) {
    const res = await client.post(`/api/imports/${id}/commit`, { policy });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await expect
      .poll(async () => (await client.get(`/api/imports/${id}`)).body.status, { timeout: 60_000, interval: 200 })
      .toMatch(/completed|failed/);
    const done = (await client.get(`/api/imports/${id}`)).body;
    expect(done.error).toBeNull();
    expect(done.status).toBe('completed');
    return done;
  }

  async function contacts(client: HttpClient) {
    return (await client.get('/api/contacts')).body as {
      id: number;
      firstName: string;
      lastName: string;
      email: string | null;
      phone: string | null;
      consent: { email: { status: string } };
    }[];
  }

  /** Settings → Export everything: POST /api/exports, wait for it, and download the ZIP signed in. */
  async function exportZip(client: HttpClient): Promise<Buffer> {
    const created = await client.post('/api/exports');
    expect(created.status, created.text).toBe(201);
    await expect
      .poll(async () => (await client.get(`/api/exports/${created.body.id}`)).body.status, { timeout: 60_000 })
      .toBe('ready');
    const res = await fetch(`${appUrl}/api/exports/${created.body.id}/download`, { headers: signedIn(client) });
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  return { upload, committed, contacts, exportZip };
}

/** The session cookie of `client`, for a request it cannot make itself (multipart, a binary answer). */
const signedIn = (client: HttpClient): Record<string, string> =>
  client.cookies.size ? { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {};
