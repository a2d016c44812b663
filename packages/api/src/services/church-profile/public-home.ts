import { sql, type Db } from '@lampstand/db';
import type { VisitSourceKind } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import { signUpTo, type SignupDeps, type SignupResult } from '../landing-pages/signups.js';
import type { ShowUpCard } from '../../render/landing-page-html.js';
import { RAISED_AMOUNT, SUPPORTERS } from '../show-up/project-totals.js';

export const CHURCH_NOT_FOUND = "The page you're looking for doesn't exist.";
export const CHOOSE_A_LIST = 'Choose at least one list to join';

export interface ChurchHome {
  userId: number;
  handle: string;
  churchName: string;
  description: string;
  logo: { url: string; thumbnailUrl: string | null } | null;
  address: string;
  serviceTimes: string;
  website: string | null;
  pages: { name: string; slug: string; headline: string }[];
  projects: ShowUpCard[];
  lists: { id: number; name: string; description: string }[];
  /** Active groups the group finder (`/c/{handle}/groups`) shows. */
  groupCount?: number;
}

/**
 * A church's public home by its handle (`/c/{handle}`): its profile, its published landing pages,
 * its active Show Up projects and the lists people may join. A handle the church gave up within
 * the year answers `{ redirect }` with its current handle; an unknown one is a 404.
 */
export async function churchHomeByHandle(db: Db, handle: string): Promise<{ home: ChurchHome } | { redirect: string }> {
  const profile = await db
    .selectFrom('churchProfiles as cp')
    .innerJoin('users as u', 'u.id', 'cp.userId')
    .selectAll('cp')
    .select('u.churchName')
    .where('cp.handle', '=', handle)
    .executeTakeFirst();
  if (!profile) {
    const moved = await db
      .selectFrom('churchHandleRedirects as r')
      .innerJoin('churchProfiles as cp', 'cp.userId', 'r.userId')
      .select('cp.handle')
      .where('r.handle', '=', handle)
      .where('r.expiresAt', '>', sql<Date>`now()`)
      .executeTakeFirst();
    if (moved) return { redirect: moved.handle };
    throw notFound(CHURCH_NOT_FOUND);
  }
  const tenantId = profile.userId;
  const [pages, projects, lists, groups] = await Promise.all([
    db
      .selectFrom('landingPages')
      .select(['name', 'slug', sql<string>`coalesce(content->>'headline', '')`.as('headline')])
      .where('userId', '=', tenantId)
      .where('published', '=', true)
      .orderBy('updatedAt', 'desc')
      .limit(20)
      .execute(),
    db
      .selectFrom('showUpProjects as p')
      .select(['p.id', 'p.title', 'p.shortDescription', 'p.targetAmount'])
      .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount')])
      .where('p.userId', '=', tenantId)
      .where('p.status', '=', 'active')
      .orderBy('p.createdAt', 'desc')
      .limit(12)
      .execute(),
    publicLists(db, tenantId),
    db
      .selectFrom('groups')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('userId', '=', tenantId)
      .where('archivedAt', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    home: {
      userId: tenantId,
      handle: profile.handle,
      churchName: profile.churchName ?? '',
      description: profile.description,
      logo: profile.logoUrl ? { url: profile.logoUrl, thumbnailUrl: profile.logoThumbnailUrl } : null,
      address: profile.address,
      serviceTimes: profile.serviceTimes,
      website: profile.website,
      pages,
      projects: projects.map((p) => ({
        ...p,
        raisedAmount: Number(p.raisedAmount),
        targetAmount: Number(p.targetAmount),
        donationsCount: Number(p.donationsCount),
      })),
      lists,
      groupCount: Number(groups.n),
    },
  };
}

function publicLists(db: Db, tenantId: number) {
  return db
    .selectFrom('contactLists')
    .select(['id', 'name', 'publicDescription as description'])
    .where('userId', '=', tenantId)
    .where('isPublic', '=', true)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * Someone joins the church's public lists from its home page: the same double opt-in sign-up as a
 * landing page's form (a contact, found by email or created; the lists; a confirmation email),
 * with no page. Only lists the church made public can be joined; at least one is chosen.
 */
export async function joinChurchLists(
  deps: SignupDeps,
  input: {
    home: Pick<ChurchHome, 'userId' | 'handle' | 'churchName'>;
    listIds: number[];
    form: unknown;
    source: { kind: VisitSourceKind; value: string | null };
    visitorHash: string;
  },
): Promise<SignupResult> {
  const open = await publicLists(deps.db, input.home.userId);
  const chosen = open.filter((l) => input.listIds.includes(l.id));
  if (chosen.length === 0) throw badRequest(CHOOSE_A_LIST, 'lists');
  return signUpTo(deps, {
    target: {
      tenantId: input.home.userId,
      churchName: input.home.churchName,
      page: null,
      name: input.home.churchName,
      basePath: `/c/${input.home.handle}`,
      consentSource: `church-home:${input.home.handle}`,
      block: { id: 'lists', kind: 'church-home' },
      lists: chosen.map((l) => ({ id: l.id, name: l.name })),
      fields: { phone: false, city: false, postalCode: false },
    },
    form: input.form,
    source: input.source,
    visitorHash: input.visitorHash,
  });
}
