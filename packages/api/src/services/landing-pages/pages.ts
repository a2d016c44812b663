import type { Selectable } from 'kysely';
import { bypassDb, sql, type Db, type LandingPagesTable } from '@lampstand/db';
import { AppError, conflict, isUniqueViolation, notFound } from '../../errors.js';
import {
  landingPageContentSchema,
  type LandingPage,
  type LandingPageContent,
  type LandingPageListItem,
} from '../../schemas/landing-pages.js';
import { slugify } from '../../shared/landing-pages.js';
import { cleanContent } from './sanitize.js';
import { findChurchRow } from '../church-rows.js';

/**
 * A landing page as the services return it: the output type with its timestamps still Date (the
 * output schema's `isoTimestamp` turns them into ISO strings). Not `z.input`, whose content would
 * have every defaulted field optional.
 */
type LandingPageRecord = Omit<LandingPage, 'publishedAt' | 'createdAt' | 'updatedAt'> & {
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

const SLUG_TAKEN = 'Slug is already taken';

/** Called after every change of a page, so cached public copies are dropped at once. */
export type PageChanged = (slugs: string[]) => void;

function toContent(raw: unknown): LandingPageContent {
  const parsed = landingPageContentSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : landingPageContentSchema.parse({});
}

export function toLandingPage(row: Selectable<LandingPagesTable>): LandingPageRecord {
  return {
    id: row.id,
    userId: row.userId,
    name: row.name,
    slug: row.slug,
    published: row.published,
    publishedAt: row.publishedAt,
    content: toContent(row.content),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function slugTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(SLUG_TAKEN, 'slug');
    throw err;
  }
}

/** The church's pages, newest first, each with its visits of the last 30 days and its sign-ups. */
export async function listLandingPages(
  db: Db,
  tenantId: number,
): Promise<(LandingPageRecord & Pick<LandingPageListItem, 'visits30d' | 'signups'>)[]> {
  const rows = await db
    .selectFrom('landingPages as p')
    .selectAll('p')
    .select((eb) => [
      eb
        .selectFrom('landingPageVisits as v')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('v.pageId', '=', 'p.id')
        .where('v.userId', '=', tenantId)
        .where('v.day', '>=', sql<string>`(current_date - 29)`)
        .as('visits30d'),
      eb
        .selectFrom('landingPageSignups as s')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('s.pageId', '=', 'p.id')
        .where('s.userId', '=', tenantId)
        .as('signups'),
    ])
    .where('p.userId', '=', tenantId)
    .orderBy('p.createdAt', 'desc')
    .orderBy('p.id', 'desc')
    .execute();
  return rows.map((r) => ({
    ...toLandingPage(r),
    visits30d: Number(r.visits30d ?? 0),
    signups: Number(r.signups ?? 0),
  }));
}

export async function getLandingPage(db: Db, tenantId: number, input: { id: number }): Promise<LandingPageRecord> {
  const row = await findChurchRow(db, tenantId, {
    table: 'landingPages',
    id: input.id,
    missing: 'Landing page not found',
  });
  return toLandingPage(row);
}

export interface LandingPageFields {
  name: string;
  slug: string;
  content: LandingPageContent;
  published: boolean;
}

export async function createLandingPage(
  deps: { db: Db; onChange?: PageChanged },
  tenantId: number,
  input: LandingPageFields,
): Promise<LandingPageRecord> {
  const content = cleanContent({
    ...input.content,
    headline: input.content.headline || (input.content.blocks.length ? '' : input.name),
  });
  const row = await slugTaken(() =>
    deps.db
      .insertInto('landingPages')
      .values({
        userId: tenantId,
        name: input.name,
        slug: input.slug,
        published: input.published,
        publishedAt: input.published ? new Date() : null,
        content: JSON.stringify(content),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  deps.onChange?.([row.slug]);
  return toLandingPage(row);
}

/** PUT: replaces name, slug, content and the published flag (publishedAt set when it turns on). */
export async function updateLandingPage(
  deps: { db: Db; onChange?: PageChanged },
  tenantId: number,
  input: LandingPageFields & { id: number },
): Promise<LandingPageRecord> {
  const content = cleanContent(input.content);
  const { before, row } = await slugTaken(() =>
    deps.db.transaction().execute(async (trx) => {
      const before = await findChurchRow(trx, tenantId, {
        table: 'landingPages',
        id: input.id,
        columns: ['slug', 'published'],
        forUpdate: true,
        missing: 'Landing page not found',
      });
      const row = await trx
        .updateTable('landingPages')
        .set({
          name: input.name,
          slug: input.slug,
          content: JSON.stringify(content),
          published: input.published,
          publishedAt: input.published ? (before.published ? sql<Date>`published_at` : new Date()) : null,
          updatedAt: new Date(),
        })
        .where('id', '=', input.id)
        .where('userId', '=', tenantId)
        .returningAll()
        .executeTakeFirstOrThrow();
      return { before, row };
    }),
  );
  deps.onChange?.([before.slug, row.slug]);
  return toLandingPage(row);
}

export async function publishLandingPage(
  deps: { db: Db; onChange?: PageChanged },
  tenantId: number,
  input: { id: number; published: boolean },
): Promise<LandingPageRecord> {
  const row = await deps.db
    .updateTable('landingPages')
    .set({
      published: input.published,
      publishedAt: input.published ? sql<Date>`case when published then published_at else now() end` : null,
      updatedAt: new Date(),
    })
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('Landing page not found');
  deps.onChange?.([row.slug]);
  return toLandingPage(row);
}

export async function deleteLandingPage(
  deps: { db: Db; onChange?: PageChanged },
  tenantId: number,
  input: { id: number },
): Promise<{ id: number }> {
  const row = await deps.db
    .deleteFrom('landingPages')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning(['id', 'slug'])
    .executeTakeFirst();
  if (!row) throw notFound('Landing page not found');
  deps.onChange?.([row.slug]);
  return { id: row.id };
}

/** A draft copy named '… (copy)' at the first free '<slug>-copy', '<slug>-copy-2', … */
export async function duplicateLandingPage(
  deps: { db: Db; onChange?: PageChanged },
  tenantId: number,
  input: { id: number },
): Promise<LandingPageRecord> {
  const page = await getLandingPage(deps.db, tenantId, input);
  const base = `${page.slug.slice(0, 90)}-copy`;
  // Slugs are one namespace for every church (public addresses): the one row-level security
  // bypass of a church's request, reading slugs only (docs/security.md).
  const taken = new Set(
    (await bypassDb(deps.db).selectFrom('landingPages').select('slug').where('slug', 'like', `${base}%`).execute()).map(
      (r) => r.slug,
    ),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return createLandingPage(deps, tenantId, {
    name: `${page.name} (copy)`.slice(0, 200),
    slug,
    content: page.content,
    published: false,
  });
}

/** 'Use' on a landing-page template: a draft named after it at a free slug, its copy as the content. */
export async function createLandingPageFromTemplate(
  db: Db,
  tenantId: number,
  input: { name: string; content: Record<string, unknown> },
): Promise<LandingPageRecord> {
  const c = input.content;
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  const content = landingPageContentSchema.parse({
    headline: str(c.headline).slice(0, 200),
    subheading: str(c.subheading).slice(0, 500),
    mainContent: str(c.mainContent).slice(0, 20_000),
    callToAction: str(c.callToAction).slice(0, 100),
    keyPoints: Array.isArray(c.keyPoints)
      ? c.keyPoints
          .filter((k): k is string => typeof k === 'string')
          .map((k) => k.slice(0, 300))
          .slice(0, 12)
      : [],
  });
  return createDraftLandingPage({ db }, tenantId, { name: input.name, content });
}

/** A draft page at the first free slug made from its name ('<slug>', '<slug>-2', …). */
export async function createDraftLandingPage(
  deps: { db: Db; onChange?: PageChanged },
  tenantId: number,
  input: { name: string; content: LandingPageContent },
): Promise<LandingPageRecord> {
  const base = slugify(input.name) || 'page';
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    try {
      return await createLandingPage(deps, tenantId, {
        name: input.name.slice(0, 200),
        slug,
        content: input.content,
        published: false,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'CONFLICT' && n < 50) continue;
      throw err;
    }
  }
}
