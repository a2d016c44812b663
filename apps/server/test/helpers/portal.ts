import type { Db } from '@lampstand/db';
import { expect } from 'vitest';

/** A church's public profile row: without one a church has no handle, so no portal. */
export async function giveHandle(db: Db, userId: number, handle: string): Promise<string> {
  await db.insertInto('churchProfiles').values({ userId, handle }).execute();
  return handle;
}

/**
 * The portal's messages are sent by the worker: wait until none is waiting (polled,
 * so a slow machine only waits longer).
 */
export async function portalMessagesSent(db: Db, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await db
      .selectFrom('deliveries')
      .select('id')
      .where('kind', '=', 'portal')
      .where('status', 'in', ['pending', 'sending'])
      .limit(1)
      .executeTakeFirst();
    if (!waiting) return;
    if (Date.now() > until) throw new Error('Portal messages are still waiting to be sent');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The newest email in the outbox to `to`, and the first link in it matching `pattern`. */
export async function linkInOutbox(db: Db, to: string, pattern: RegExp): Promise<string> {
  await portalMessagesSent(db);
  const m = await db
    .selectFrom('outboxMessages')
    .select(['text'])
    .where('toAddress', '=', to)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const found = pattern.exec(m.text ?? '');
  expect(found, m.text ?? '').toBeTruthy();
  return found![0];
}

export interface PortalAnswer {
  status: number;
  text: string;
  headers: Headers;
}

/** One member's browser on the portal: its own cookies, form posts, no redirects followed. */
export class Member {
  cookies = new Map<string, string>();
  constructor(readonly baseUrl: string) {}

  async request(
    method: string,
    path: string,
    form?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<PortalAnswer> {
    const h: Record<string, string> = { ...headers };
    let body: string | undefined;
    if (form) {
      const p = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x);
      body = p.toString();
      h['content-type'] = 'application/x-www-form-urlencoded';
    } else if (method === 'POST') {
      body = '';
      h['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.baseUrl + path, { method, headers: h, body, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (value === '' || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, text: await res.text(), headers: res.headers };
  }
  get(path: string): Promise<PortalAnswer> {
    return this.request('GET', path);
  }
  post(
    path: string,
    form?: Record<string, string | string[]>,
    headers?: Record<string, string>,
  ): Promise<PortalAnswer> {
    return this.request('POST', path, form, headers);
  }
  /** The CSRF token of a signed-in page's forms. */
  async csrf(path: string): Promise<string> {
    const page = await this.get(path);
    const m = /name="csrf" value="([^"]+)"/.exec(page.text);
    expect(m, `${page.status} ${page.text.slice(0, 300)}`).toBeTruthy();
    return m![1]!;
  }
}

/** Ask for a sign-in link at `base` (`/c/{handle}/me`) and press its button: the member is signed in. */
export async function signInToPortal(db: Db, baseUrl: string, base: string, email: string): Promise<Member> {
  const member = new Member(baseUrl);
  await db.deleteFrom('rateLimitBuckets').where('key', 'like', 'portal-sign-in:client:%').execute();
  expect((await member.post(`${base}/sign-in`, { address: email })).status).toBe(200);
  const link = await linkInOutbox(db, email, new RegExp(`http://\\S+${base}/link/[\\w-]+`));
  const pressed = await member.post(new URL(link).pathname);
  expect(pressed.status, pressed.text).toBe(303);
  return member;
}
