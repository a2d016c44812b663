import type { Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import { notFound } from '../../errors.js';
import { createEmailCampaign } from '../email-campaigns/campaigns.js';
import { createSmsCampaign } from '../sms-campaigns/campaigns.js';
import { longDate, shortTime } from './assignments.js';

/** What a draft is made from: the plan's fields and the church's name. */
export interface AnnounceSource {
  planId: number;
  title: string;
  date: string;
  startTime: string | null;
  location: string | null;
  theme: string | null;
  description: string | null;
  churchName: string;
  /** The contact list the drafts go to, or none (chosen later in the draft). */
  listId: number | null;
}

export interface AnnounceDeps {
  db: Db;
  jobs: JobQueue;
}

/**
 * One kind of draft 'Announce' makes. Each creates its draft through that feature's own service
 * (nothing is sent or published) and says where the draft opens. To add social posts or landing
 * pages, add an entry to `ANNOUNCERS`.
 */
export interface Announcer {
  kind: string;
  create(deps: AnnounceDeps, tenantId: number, source: AnnounceSource): Promise<{ id: number; name: string }>;
  path(id: number): string;
  /** The draft's current name, or null once it was deleted. */
  name(db: Db, tenantId: number, id: number): Promise<string | null>;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const whenOf = (s: AnnounceSource) => `${longDate(s.date)}${s.startTime ? ` at ${shortTime(s.startTime)}` : ''}`;

const emailDraft: Announcer = {
  kind: 'email',
  async create(deps, tenantId, s) {
    const paragraphs = [
      `<h2>${escapeHtml(s.title)}</h2>`,
      `<p>Join us at ${escapeHtml(s.churchName)} on <strong>${escapeHtml(whenOf(s))}</strong>` +
        `${s.location ? ` at ${escapeHtml(s.location)}` : ''}.</p>`,
      s.theme ? `<p>This week's theme: <em>${escapeHtml(s.theme)}</em>.</p>` : '',
      s.description ? `<p>${escapeHtml(s.description)}</p>` : '',
      `<p>We would love to see you there. Bring a friend!</p>`,
    ];
    const c = await createEmailCampaign(deps.db, deps.jobs, tenantId, {
      name: `${s.title} – ${longDate(s.date)}`,
      subject: `${s.title}: ${whenOf(s)}`,
      content: paragraphs.filter(Boolean).join('\n'),
      status: 'draft',
      listIds: s.listId ? [s.listId] : [],
    });
    return { id: c.id, name: c.name };
  },
  path: (id) => `/email-campaigns/${id}/edit`,
  async name(db, tenantId, id) {
    const c = await db
      .selectFrom('emailCampaigns')
      .select('name')
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    return c?.name ?? null;
  },
};

const smsDraft: Announcer = {
  kind: 'sms',
  async create(deps, tenantId, s) {
    const content =
      `${s.churchName}: ${s.title}, ${whenOf(s)}${s.location ? `, ${s.location}` : ''}.` +
      `${s.theme ? ` Theme: ${s.theme}.` : ''} See you there!`;
    const c = await createSmsCampaign(deps.db, deps.jobs, tenantId, {
      name: `${s.title} – ${longDate(s.date)}`,
      content: content.slice(0, 1600),
      status: 'draft',
      listIds: s.listId ? [s.listId] : [],
    });
    return { id: c.id, name: c.name };
  },
  path: (id) => `/sms-campaigns?edit=${id}`,
  async name(db, tenantId, id) {
    const c = await db
      .selectFrom('smsCampaigns')
      .select('name')
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    return c?.name ?? null;
  },
};

export const ANNOUNCERS: Announcer[] = [emailDraft, smsDraft];

/** The drafts made from a plan that still exist, newest first, with where they open. */
export async function loadAnnouncements(db: Db, tenantId: number, o: { planId: number }) {
  const rows = await db
    .selectFrom('servicePlanAnnouncements')
    .select(['kind', 'targetId', 'createdAt'])
    .where('servicePlanId', '=', o.planId)
    .where('userId', '=', tenantId)
    .orderBy('id', 'desc')
    .execute();
  const out = [];
  for (const r of rows) {
    const announcer = ANNOUNCERS.find((a) => a.kind === r.kind);
    const name = announcer ? await announcer.name(db, tenantId, r.targetId) : null;
    if (!announcer || name === null) continue;
    out.push({
      kind: r.kind,
      targetId: r.targetId,
      name,
      path: announcer.path(r.targetId),
      createdAt: r.createdAt.toISOString(),
    });
  }
  return out;
}

/** Make every kind of draft from a plan, each linked back to it. Nothing is sent. */
export async function announcePlan(
  deps: AnnounceDeps,
  tenantId: number,
  input: { planId: number; listId?: number | null },
) {
  const plan = await deps.db
    .selectFrom('servicePlans as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select(['p.id', 'p.title', 'p.date', 'p.startTime', 'p.location', 'p.theme', 'p.description', 'u.churchName'])
    .where('p.id', '=', input.planId)
    .where('p.userId', '=', tenantId)
    .executeTakeFirst();
  if (!plan) throw notFound('Service plan not found');
  const source: AnnounceSource = {
    planId: plan.id,
    title: plan.title,
    date: plan.date,
    startTime: plan.startTime,
    location: plan.location,
    theme: plan.theme,
    description: plan.description,
    churchName: plan.churchName,
    listId: input.listId ?? null,
  };
  const drafts = [];
  for (const announcer of ANNOUNCERS) {
    const made = await announcer.create(deps, tenantId, source);
    const row = await deps.db
      .insertInto('servicePlanAnnouncements')
      .values({ userId: tenantId, servicePlanId: plan.id, kind: announcer.kind, targetId: made.id })
      .returning('createdAt')
      .executeTakeFirstOrThrow();
    drafts.push({
      kind: announcer.kind,
      targetId: made.id,
      name: made.name,
      path: announcer.path(made.id),
      createdAt: row.createdAt.toISOString(),
    });
  }
  return { drafts };
}
