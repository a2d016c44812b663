import { performance } from 'node:perf_hooks';
import { sql, type Db } from '@lampstand/db';
import type { HttpClient } from '../../test/helpers/test-app.js';

/** The email the campaign benchmarks send: a personalised subject, a short note with a link. */
export const BENCH_EMAIL = {
  subject: 'Hello {{firstName}}',
  content:
    '<p>Hello {{firstName}},</p><p>A short note from {{churchName}} with <a href="https://example.org/news">a link</a>.</p>',
};

/**
 * `count` contacts of the church in the list, subscribed, with an email (`{prefix}{n}@example.org`)
 * and an Australian mobile, 10,000 per INSERT … SELECT over generate_series.
 */
export async function seedListContacts(db: Db, tenantId: number, listId: number, count: number, prefix: string) {
  for (let start = 0; start < count; start += 10_000) {
    const n = Math.min(10_000, count - start);
    await sql`
      with c as (
        insert into contacts (user_id, first_name, last_name, email, phone, phone_e164, sms_consent, metadata)
        select ${tenantId}, 'Person' || g, 'Bench', ${prefix} || g || '@example.org',
               '0400' || lpad(g::text, 6, '0'), '+61400' || lpad(g::text, 6, '0'), 'subscribed', '{"countryCode":"+61"}'::jsonb
        from generate_series(${start}::int, ${start + n - 1}::int) g
        returning id
      )
      insert into contacts_in_lists (user_id, contact_id, list_id) select ${tenantId}, id, ${listId} from c`.execute(
      db,
    );
  }
}

/** A campaign made by createCampaign: its id and its REST path (`/api/email-campaigns/{id}`). */
export interface BenchCampaign {
  id: number;
  path: string;
}

/** Creates a campaign of the channel (`fields` as its POST takes them). */
export async function createCampaign(
  church: HttpClient,
  channel: 'email' | 'sms',
  fields: Record<string, unknown>,
): Promise<BenchCampaign> {
  const res = await church.post(`/api/${channel}-campaigns`, fields);
  if (res.status !== 201) throw new Error(`${channel} campaign: ${res.status} ${res.text}`);
  const { id } = res.body as { id: number };
  return { id, path: `/api/${channel}-campaigns/${id}` };
}

/** Sends the campaign now (its recipients are snapshotted before the answer); throws unless 200. */
export async function sendCampaign(church: HttpClient, campaign: BenchCampaign): Promise<void> {
  const res = await church.post(`${campaign.path}/send`);
  if (res.status !== 200) throw new Error(`send ${campaign.path}: ${res.status} ${res.text}`);
}

/**
 * Polls the campaign at `path` every `pollMs` until it is sent or failed, at most `deadlineS`; its
 * status (`still sending` past the deadline) and the seconds waited. `onProgress` gets the sent count.
 */
export async function waitCampaign(
  client: HttpClient,
  path: string,
  { deadlineS, pollMs, onProgress }: { deadlineS: number; pollMs: number; onProgress?: (sent: number) => void },
) {
  const t0 = performance.now();
  for (;;) {
    const c = (await client.get(path)).body as { status: string; progress?: { sent?: number } };
    onProgress?.(Number(c.progress?.sent ?? 0));
    if (c.status === 'sent' || c.status === 'failed')
      return { status: c.status, seconds: (performance.now() - t0) / 1000 };
    if (performance.now() - t0 > deadlineS * 1000) return { status: `still ${c.status}`, seconds: deadlineS };
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
