import type { Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import { notFound } from '../../errors.js';
import { saveEmailCampaign } from '../email-campaigns/campaigns.js';
import { saveSmsCampaign } from '../sms-campaigns/campaigns.js';
import { createSocialPost } from '../social-posts/posts.js';
import { createDraftLandingPage, type PageChanged } from '../landing-pages/pages.js';
import { AppError } from '../../errors.js';
import { generateAnnouncementCopy } from '../ai-generator/generate.js';
import type { AiProvider } from '../../providers/ai.js';
import type { AiAnnounceAnswer } from '../../schemas/service-planner.js';
import type { Block } from '../../schemas/landing-pages.js';
import { longDate, shortTime } from './assignments.js';
import { churchLocaleOf } from '../settings/church-settings.js';
import { escapeHtml } from '../../render/html.js';

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
  /** 'en-AU': the date and time as the church writes them. */
  locale?: string;
  /** The contact list the drafts go to, or none (chosen later in the draft). */
  listId: number | null;
  /** The social post is dated this many days before the service. */
  socialDaysBefore: number;
  /** The AI model's words for every draft, or null: the plain templates below are used. */
  copy: AiAnnounceAnswer | null;
}

export interface AnnounceDeps {
  db: Db;
  jobs: JobQueue;
  /** The public address of this server (a landing page's link in the social post). */
  publicUrl: string;
  /** The AI model (null when not set up: plain templates) and the church's hourly limit. */
  ai: AiProvider | null;
  aiGenerationsPerHour: number;
  /** The caller's address and its AI generations an hour. */
  aiPerAddress?: { ip: string; perHour: number };
  landingPageChanged?: PageChanged;
}

/** A draft made, with its public address when it has one (a landing page's). */
export interface MadeDraft {
  id: number;
  name: string;
  publicUrl?: string;
}

/**
 * One kind of draft 'Announce' makes. Each creates its draft through that feature's own service
 * (nothing is sent or published) and says where the draft opens. A new kind is one more entry of
 * `ANNOUNCERS` (and its label in the web app's `DRAFT_LABELS`).
 */
export interface Announcer {
  kind: string;
  /** `earlier`: the drafts made before this one in the same Announce, by kind. */
  create(
    deps: AnnounceDeps,
    tenantId: number,
    source: AnnounceSource,
    earlier: Record<string, MadeDraft>,
  ): Promise<MadeDraft>;
  path(id: number): string;
  /** The draft's current name, or null once it was deleted. */
  name(db: Db, tenantId: number, id: number): Promise<string | null>;
}

const whenOf = (s: Pick<AnnounceSource, 'date' | 'startTime' | 'locale'>) =>
  `${longDate(s.date, s)}${s.startTime ? ` at ${shortTime(s.startTime, s)}` : ''}`;

const emailDraft: Announcer = {
  kind: 'email',
  async create(deps, tenantId, s) {
    const paragraphs = s.copy
      ? [`<h2>${escapeHtml(s.title)}</h2>`, ...s.copy.emailParagraphs.map((p) => `<p>${escapeHtml(p)}</p>`)]
      : templateEmail(s);
    const c = await saveEmailCampaign(deps.db, deps.jobs, tenantId, {
      name: `${s.title} – ${longDate(s.date, s)}`,
      subject: s.copy?.emailSubject ?? `${s.title}: ${whenOf(s)}`,
      content: paragraphs.filter(Boolean).join('\n'),
      status: 'draft',
      listIds: s.listId ? [s.listId] : [],
    });
    return { id: c.id, name: c.name };
  },
  path: (id) => `/email-campaigns/${id}/edit`,
  name: (db, tenantId, id) => nameOf(db, 'emailCampaigns', tenantId, id),
};

function templateEmail(s: AnnounceSource): string[] {
  return [
    `<h2>${escapeHtml(s.title)}</h2>`,
    `<p>Join us at ${escapeHtml(s.churchName)} on <strong>${escapeHtml(whenOf(s))}</strong>` +
      `${s.location ? ` at ${escapeHtml(s.location)}` : ''}.</p>`,
    s.theme ? `<p>This week's theme: <em>${escapeHtml(s.theme)}</em>.</p>` : '',
    s.description ? `<p>${escapeHtml(s.description)}</p>` : '',
    `<p>We would love to see you there. Bring a friend!</p>`,
  ];
}

/** A draft's current name (null once it was deleted), from its feature's table. */
async function nameOf(
  db: Db,
  table: 'emailCampaigns' | 'smsCampaigns' | 'landingPages',
  tenantId: number,
  id: number,
): Promise<string | null> {
  const row = await db
    .selectFrom(table)
    .select('name')
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return row?.name ?? null;
}

const smsDraft: Announcer = {
  kind: 'sms',
  async create(deps, tenantId, s) {
    const content =
      s.copy?.sms ??
      `${s.churchName}: ${s.title}, ${whenOf(s)}${s.location ? `, ${s.location}` : ''}.` +
        `${s.theme ? ` Theme: ${s.theme}.` : ''} See you there!`;
    const c = await saveSmsCampaign(deps.db, deps.jobs, tenantId, {
      name: `${s.title} – ${longDate(s.date, s)}`,
      content: content.slice(0, 1600),
      status: 'draft',
      listIds: s.listId ? [s.listId] : [],
    });
    return { id: c.id, name: c.name };
  },
  path: (id) => `/sms-campaigns?edit=${id}`,
  name: (db, tenantId, id) => nameOf(db, 'smsCampaigns', tenantId, id),
};

/** A landing page (a draft, not published) with the service's event details. */
const landingDraft: Announcer = {
  kind: 'landing-page',
  async create(deps, tenantId, s) {
    const paragraphs = s.copy
      ? s.copy.mainContent.split(/\n\s*\n/)
      : [
          `Join us at ${s.churchName} on ${whenOf(s)}${s.location ? ` at ${s.location}` : ''}.`,
          s.theme ? `This week's theme: ${s.theme}.` : '',
          s.description ?? '',
          'We would love to see you there. Bring a friend!',
        ];
    const blocks: Block[] = [
      {
        id: 'hero',
        type: 'hero',
        headline: (s.copy?.headline ?? s.title).slice(0, 200),
        subheading: (s.copy?.subheading ?? `${whenOf(s)} at ${s.churchName}`).slice(0, 500),
        backgroundImage: null,
      },
      {
        id: 'event',
        type: 'event',
        title: s.title.slice(0, 200),
        date: s.date,
        startTime: s.startTime ? s.startTime.slice(0, 5) : null,
        endTime: null,
        place: (s.location ?? s.churchName).slice(0, 200),
        address: '',
        mapUrl: '',
      },
      {
        id: 'main',
        type: 'text',
        html: paragraphs
          .filter((p) => p.trim())
          .map((p) => `<p>${escapeHtml(p.trim())}</p>`)
          .join(''),
      },
    ];
    if (s.copy?.keyPoints.length)
      blocks.push({ id: 'highlights', type: 'highlights', title: 'Key Highlights', items: s.copy.keyPoints });
    const page = await createDraftLandingPage({ db: deps.db, onChange: deps.landingPageChanged }, tenantId, {
      name: `${s.title} – ${longDate(s.date, s)}`,
      content: {
        headline: '',
        subheading: '',
        mainContent: '',
        callToAction: '',
        keyPoints: [],
        blocks,
      },
    });
    return { id: page.id, name: page.name, publicUrl: `${deps.publicUrl}/p/${page.slug}` };
  },
  path: (id) => `/landing-pages/${id}`,
  name: (db, tenantId, id) => nameOf(db, 'landingPages', tenantId, id),
};

/** When the social post is dated: N days before the service at its start time, never in the past. */
function socialPostTime(s: Pick<AnnounceSource, 'date' | 'startTime' | 'socialDaysBefore'>, now: Date): Date {
  const at = new Date(`${s.date}T${(s.startTime ?? '09:00').slice(0, 5)}:00Z`);
  at.setUTCDate(at.getUTCDate() - s.socialDaysBefore);
  if (at.getTime() > now.getTime()) return at;
  const soon = new Date(now);
  soon.setUTCHours(soon.getUTCHours() + 1, 0, 0, 0);
  return soon;
}

/** A social post (a draft: it does not publish until someone schedules it), linking the landing page. */
const socialDraft: Announcer = {
  kind: 'social',
  async create(deps, tenantId, s, earlier) {
    const link = earlier['landing-page']?.publicUrl ?? null;
    const text =
      s.copy?.social ??
      `${s.title} at ${s.churchName}: ${whenOf(s)}${s.location ? `, ${s.location}` : ''}.` +
        `${s.theme ? ` ${s.theme}.` : ''} Join us!`;
    const post = await createSocialPost(deps, tenantId, {
      content: text,
      scheduledFor: socialPostTime(s, new Date()).toISOString(),
      platforms: ['facebook'],
      status: 'draft',
      imageUrl: null,
      linkUrl: link,
      tags: [],
    });
    return { id: post.id, name: post.content.slice(0, 60) };
  },
  path: (id) => `/social-blast?post=${id}`,
  async name(db, tenantId, id) {
    const p = await db
      .selectFrom('socialPosts')
      .select('content')
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .executeTakeFirst();
    return p ? p.content.slice(0, 60) : null;
  },
};

/** In this order: the landing page comes before the social post that links to it. */
const ANNOUNCERS: Announcer[] = [emailDraft, smsDraft, landingDraft, socialDraft];

/** The AI model's words for the drafts; null (plain templates) without AI, past the limit or on failure. */
async function aiCopy(deps: AnnounceDeps, tenantId: number, s: Omit<AnnounceSource, 'copy'>) {
  if (!deps.ai) return null;
  try {
    return await generateAnnouncementCopy(
      { db: deps.db, ai: deps.ai, generationsPerHour: deps.aiGenerationsPerHour, perAddress: deps.aiPerAddress },
      tenantId,
      {
        churchName: s.churchName,
        title: s.title,
        when: whenOf(s),
        location: s.location,
        theme: s.theme,
        description: s.description,
      },
    );
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

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
      createdAt: r.createdAt,
    });
  }
  return out;
}

/** Make every kind of draft from a plan, each linked back to it. Nothing is sent. */
export async function announcePlan(
  deps: AnnounceDeps,
  tenantId: number,
  input: { planId: number; listId?: number | null; socialDaysBefore?: number },
) {
  const plan = await deps.db
    .selectFrom('servicePlans as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .select(['p.id', 'p.title', 'p.date', 'p.startTime', 'p.location', 'p.theme', 'p.description', 'u.churchName'])
    .where('p.id', '=', input.planId)
    .where('p.userId', '=', tenantId)
    .executeTakeFirst();
  if (!plan) throw notFound('Service plan not found');
  const facts = {
    planId: plan.id,
    title: plan.title,
    date: plan.date,
    startTime: plan.startTime,
    location: plan.location,
    theme: plan.theme,
    description: plan.description,
    churchName: plan.churchName,
    locale: (await churchLocaleOf(deps.db, tenantId)).locale,
    listId: input.listId ?? null,
    socialDaysBefore: input.socialDaysBefore ?? 3,
  };
  const source: AnnounceSource = { ...facts, copy: await aiCopy(deps, tenantId, facts) };
  const drafts = [];
  const earlier: Record<string, MadeDraft> = {};
  for (const announcer of ANNOUNCERS) {
    const made = await announcer.create(deps, tenantId, source, earlier);
    earlier[announcer.kind] = made;
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
      createdAt: row.createdAt,
    });
  }
  return { drafts, copy: source.copy ? ('ai' as const) : ('template' as const) };
}
