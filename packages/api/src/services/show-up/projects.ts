import type { ShowUpCard } from '../../render/landing-page-html.js';
import { bypassDb, databaseKey, sql, type Db, type ShowUpImage } from '@lampstand/db';
import type { z } from 'zod';
import { AppError, badRequest, forbidden, notFound } from '../../errors.js';
import { getUpload } from '../uploads/uploads.js';
import {
  URGENT_DAYS,
  type createProjectSchema,
  type findProjectsSchema,
  type imageInputSchema,
  type projectSchema,
  type ProjectCard,
  type UpdateProjectInput,
} from '../../schemas/show-up.js';

type ProjectFields = z.output<typeof createProjectSchema>;
type EditFields = Partial<Omit<UpdateProjectInput, 'id'>>;
type FindProjects = z.output<typeof findProjectsSchema>;
type ImageIn = z.output<typeof imageInputSchema>;

/** The stored shape of an image; the upload's id is kept when known. */
export function toStoredImage(image: ImageIn): ShowUpImage {
  return { id: image.id ?? null, url: image.url, thumbnailUrl: image.thumbnailUrl ?? null };
}

/**
 * An image with an upload id must be one of this church's uploads; its addresses are taken from the
 * upload, not from the request. An image given only by address is kept as given.
 */
/** `field` names the input field in the error when the upload is not the church's. */
export async function resolveImage(
  db: Db,
  tenantId: number,
  { image, field }: { image: ImageIn; field: string },
): Promise<ImageIn> {
  if (image.id == null) return image;
  try {
    const upload = await getUpload(db, tenantId, { id: image.id });
    return { id: upload.id, url: upload.url, thumbnailUrl: upload.thumbnailUrl };
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw badRequest('Image not found', field);
    throw err;
  }
}

async function resolveFields<T extends { coverImage?: ImageIn | null; images?: ImageIn[] }>(
  db: Db,
  tenantId: number,
  input: T,
): Promise<T> {
  return {
    ...input,
    ...(input.coverImage
      ? { coverImage: await resolveImage(db, tenantId, { image: input.coverImage, field: 'coverImage' }) }
      : {}),
    ...(input.images
      ? {
          images: await Promise.all(
            input.images.map((img, i) => resolveImage(db, tenantId, { image: img, field: `images.${i}` })),
          ),
        }
      : {}),
  };
}

/**
 * A project's raised amount (dollars) and supporters, read from the ledger: the lines of
 * completed gifts to the project's fund. A refund, a dispute or a lost dispute takes a gift off; a
 * won dispute puts it back. For a query of `showUpProjects as p`.
 */
export const RAISED_AMOUNT = sql<number>`(select (coalesce(sum(l.amount_cents), 0) / 100.0)::float8
  from gift_lines l join gifts g on g.id = l.gift_id join funds f on f.id = l.fund_id
  where f.project_id = p.id and g.status = 'completed')`;
export const SUPPORTERS = sql<number>`(select count(distinct l.gift_id)::int
  from gift_lines l join gifts g on g.id = l.gift_id join funds f on f.id = l.fund_id
  where f.project_id = p.id and g.status = 'completed')`;

/** One project's raised amount and supporters, from the ledger. */
export async function projectTotals(
  db: Db,
  projectId: number,
): Promise<{ raisedAmount: number; donationsCount: number }> {
  return db
    .selectFrom('showUpProjects as p')
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount')])
    .where('p.id', '=', projectId)
    .executeTakeFirstOrThrow();
}

const CARD_COLUMNS = [
  'p.id',
  'p.userId',
  'p.title',
  'p.shortDescription',
  'p.location',
  'p.latitude',
  'p.longitude',
  'p.targetAmount',
  'p.status',
  'p.category',
  'p.tags',
  'p.coverImage',
  'p.coverThumbnailUrl',
  'p.organizationName',
  'p.startDate',
  'p.endDate',
] as const;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type ProjectPage = { items: ProjectCard[]; total: number; page: number; pageSize: number };

/**
 * The public list is read far more than it changes: pages are kept for the spec's 5 minutes in this
 * process and dropped at once when this process changes a project or a total (another instance's
 * change shows within those 5 minutes).
 */
const LIST_TTL_MS = 5 * 60 * 1000;
// Keyed by the database, not the handle: a church's write (its own handle) clears the public lists.
const listCaches = new WeakMap<object, Map<string, { at: number; value: ProjectPage }>>();
export function invalidateShowUpLists(db: Db): void {
  listCaches.get(databaseKey(db))?.clear();
}

/** Public list: active projects, searched and filtered on the server, one page at a time. */
export async function findProjects(db: Db, viewerId: number | null, input: FindProjects): Promise<ProjectPage> {
  if (input.ownedByMe) return queryProjects(db, viewerId, input);
  const key = JSON.stringify(input);
  let listCache = listCaches.get(databaseKey(db));
  if (!listCache) listCaches.set(databaseKey(db), (listCache = new Map<string, { at: number; value: ProjectPage }>()));
  const hit = listCache.get(key);
  if (hit && Date.now() - hit.at < LIST_TTL_MS) return hit.value;
  const value = await queryProjects(db, viewerId, input);
  if (listCache.size >= 1000) listCache.clear();
  listCache.set(key, { at: Date.now(), value });
  return value;
}

async function queryProjects(db: Db, viewerId: number | null, input: FindProjects): Promise<ProjectPage> {
  const near = input.lat != null && input.lng != null ? { lat: input.lat, lng: input.lng } : null;
  // Kilometres on a sphere (haversine); null when the project has no coordinates.
  const distance = near
    ? sql<number | null>`case when p.latitude is null or p.longitude is null then null else
        2 * 6371 * asin(sqrt(
          power(sin(radians(p.latitude - ${near.lat}::float8) / 2), 2) +
          cos(radians(${near.lat}::float8)) * cos(radians(p.latitude)) *
          power(sin(radians(p.longitude - ${near.lng}::float8) / 2), 2)
        )) end`
    : sql<number | null>`null::float8`;

  let query = db.selectFrom('showUpProjects as p');
  if (input.ownedByMe) {
    query = query.where('p.userId', '=', viewerId ?? 0);
  } else {
    query = query.where('p.status', '=', 'active');
  }
  if (input.search) {
    const pattern = `%${escapeLike(input.search.trim())}%`;
    query = query.where((eb) =>
      eb.or([
        eb('p.title', 'ilike', pattern),
        eb('p.shortDescription', 'ilike', pattern),
        eb('p.description', 'ilike', pattern),
        eb('p.location', 'ilike', pattern),
        eb(sql`array_to_string(p.tags, ' ')`, 'ilike', pattern),
      ]),
    );
  }
  if (input.category === 'urgent') {
    query = query
      .where('p.endDate', '>=', sql<string>`current_date`)
      .where('p.endDate', '<=', sql<string>`current_date + ${URGENT_DAYS}::int`);
  } else if (input.category) {
    query = query.where('p.category', '=', input.category);
  }

  const offset = (input.page - 1) * input.pageSize;
  let rowsQuery = query
    .select([...CARD_COLUMNS])
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount'), distance.as('distanceKm')]);
  if (near) rowsQuery = rowsQuery.orderBy(sql`${distance} asc nulls last`);
  if (input.category === 'urgent') rowsQuery = rowsQuery.orderBy('p.endDate', 'asc');
  rowsQuery = rowsQuery.orderBy('p.createdAt', 'desc').orderBy('p.id', 'desc');

  const [rows, count] = await Promise.all([
    rowsQuery.limit(input.pageSize).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      distanceKm: r.distanceKm == null ? null : Math.round(Number(r.distanceKm) * 10) / 10,
    })),
    total: Number(count.n),
    page: input.page,
    pageSize: input.pageSize,
  };
}

type ProjectRow = Awaited<ReturnType<typeof projectRow>>;

function projectRow(db: Db, id: number) {
  return db
    .selectFrom('showUpProjects as p')
    .selectAll('p')
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount')])
    .select((eb) =>
      eb
        .selectFrom('showUpUpdates as u')
        .whereRef('u.projectId', '=', 'p.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('updatesCount'),
    )
    .where('p.id', '=', id)
    .executeTakeFirst();
}

function toProject(row: NonNullable<ProjectRow>, viewerId: number | null): z.input<typeof projectSchema> {
  return {
    id: row.id,
    userId: row.userId,
    title: row.title,
    shortDescription: row.shortDescription,
    description: row.description,
    location: row.location,
    latitude: row.latitude,
    longitude: row.longitude,
    targetAmount: row.targetAmount,
    raisedAmount: row.raisedAmount,
    donationsCount: row.donationsCount,
    status: row.status,
    category: row.category,
    tags: row.tags,
    coverImage: row.coverImage,
    coverThumbnailUrl: row.coverThumbnailUrl,
    coverUploadId: row.coverUploadId,
    images: row.images,
    organizationName: row.organizationName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    website: row.website,
    startDate: row.startDate,
    endDate: row.endDate,
    updatesCount: Number(row.updatesCount ?? 0),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    isOwner: viewerId !== null && viewerId === row.userId,
  };
}

/** Public: one project (active, or any status for its owner). */
export async function getProject(
  db: Db,
  viewerId: number | null,
  { id }: { id: number },
): Promise<z.input<typeof projectSchema>> {
  const row = await projectRow(db, id);
  if (!row || (row.status !== 'active' && row.userId !== viewerId)) throw notFound('Project not found');
  return toProject(row, viewerId);
}

function columns(input: EditFields) {
  const cover = input.coverImage === undefined ? undefined : input.coverImage ? toStoredImage(input.coverImage) : null;
  return {
    ...(input.title !== undefined && { title: input.title }),
    ...(input.shortDescription !== undefined && { shortDescription: input.shortDescription }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.location !== undefined && { location: input.location }),
    ...(input.latitude !== undefined && { latitude: input.latitude }),
    ...(input.longitude !== undefined && { longitude: input.longitude }),
    ...(input.targetAmount !== undefined && { targetAmount: input.targetAmount }),
    ...(input.category !== undefined && { category: input.category }),
    ...(input.tags !== undefined && { tags: input.tags }),
    ...(input.organizationName !== undefined && { organizationName: input.organizationName }),
    ...(input.contactEmail !== undefined && { contactEmail: input.contactEmail }),
    ...(input.contactPhone !== undefined && { contactPhone: input.contactPhone }),
    ...(input.website !== undefined && { website: input.website }),
    ...(input.startDate !== undefined && { startDate: input.startDate }),
    ...(input.endDate !== undefined && { endDate: input.endDate }),
    ...(cover !== undefined && {
      coverImage: cover?.url ?? null,
      coverThumbnailUrl: cover?.thumbnailUrl ?? null,
      coverUploadId: cover?.id ?? null,
    }),
    ...(input.images !== undefined && { images: JSON.stringify(input.images.map(toStoredImage)) }),
  };
}

export async function createProject(
  db: Db,
  tenantId: number,
  fields: ProjectFields,
): Promise<z.input<typeof projectSchema>> {
  const input = await resolveFields(db, tenantId, fields);
  const values = columns(input);
  const created = await db.transaction().execute(async (trx) => {
    const project = await trx
      .insertInto('showUpProjects')
      .values({
        ...values,
        userId: tenantId,
        title: input.title,
        shortDescription: input.shortDescription,
        description: input.description,
        location: input.location,
        targetAmount: input.targetAmount,
        organizationName: input.organizationName,
        contactEmail: input.contactEmail,
        images: values.images ?? '[]',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // The project's own fund: its gifts are gifts of the ledger with a line to it. Not
    // offered on the giving page; named after the project.
    await trx
      .insertInto('funds')
      .values({ userId: tenantId, name: input.title, isPublic: false, projectId: project.id })
      .execute();
    return project;
  });
  invalidateShowUpLists(db);
  return getProject(db, tenantId, { id: created.id });
}

const NOT_YOURS = "You don't have permission to change this project.";

/**
 * Why a church cannot see a project: another account's is 403 (its page is public, so it exists),
 * a missing one 404. Row-level security hides other churches' rows, so this one lookup of an id
 * bypasses it (docs/security.md).
 */
async function missingProjectError(db: Db, projectId: number): Promise<AppError> {
  const other = await bypassDb(db)
    .selectFrom('showUpProjects')
    .select('id')
    .where('id', '=', projectId)
    .executeTakeFirst();
  return other ? forbidden(NOT_YOURS) : notFound('Project not found');
}

/** The owner's row, for writes: another account's project is 403 (its page is public, so it exists). */
export async function ownedProject(db: Db, tenantId: number, projectId: number) {
  const row = await db
    .selectFrom('showUpProjects')
    .select(['id', 'userId', 'startDate', 'endDate', 'title'])
    .where('id', '=', projectId)
    .executeTakeFirst();
  if (!row) throw await missingProjectError(db, projectId);
  if (row.userId !== tenantId) throw forbidden(NOT_YOURS); // with RLS=off
  return row;
}

/** PATCH: only the fields sent change; the end date is checked against the merged record. */
export async function updateProject(
  db: Db,
  tenantId: number,
  input: UpdateProjectInput,
): Promise<z.input<typeof projectSchema>> {
  const { id, ...sent } = input;
  const fields = await resolveFields(db, tenantId, sent);
  await db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('showUpProjects')
      .select(['userId', 'startDate', 'endDate'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw await missingProjectError(db, id);
    if (current.userId !== tenantId) throw forbidden(NOT_YOURS); // with RLS=off
    const start = fields.startDate ?? current.startDate;
    const end = fields.endDate === undefined ? current.endDate : fields.endDate;
    if (end && end <= start) {
      throw badRequest('End date must be after the start date', 'endDate');
    }
    await trx
      .updateTable('showUpProjects')
      .set({ ...columns(fields), updatedAt: new Date() })
      .where('id', '=', id)
      .where('userId', '=', tenantId)
      .execute();
    if (fields.title !== undefined) {
      await trx
        .updateTable('funds')
        .set({ name: fields.title, updatedAt: new Date() })
        .where('projectId', '=', id)
        .where('userId', '=', tenantId)
        .execute();
    }
  });
  invalidateShowUpLists(db);
  return getProject(db, tenantId, { id });
}

/** What a shared link's preview shows (Open Graph): active projects only. */
export async function publicProjectSummary(db: Db, { id }: { id: number }) {
  return (
    (await db
      .selectFrom('showUpProjects')
      .select(['id', 'title', 'shortDescription', 'coverImage'])
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst()) ?? null
  );
}

/** The live figures a landing page's Show Up blocks show: the page's church's own projects only. */
export async function showUpCardsFor(
  db: Db,
  tenantId: number,
  opts: { ids: number[] },
): Promise<Map<number, ShowUpCard>> {
  const ids = [...new Set(opts.ids)].filter((id) => id > 0 && id <= 2_147_483_647);
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('showUpProjects as p')
    .select(['p.id', 'p.title', 'p.shortDescription', 'p.targetAmount'])
    .select([RAISED_AMOUNT.as('raisedAmount'), SUPPORTERS.as('donationsCount')])
    .where('p.userId', '=', tenantId)
    .where('p.id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        title: r.title,
        shortDescription: r.shortDescription,
        raisedAmount: Number(r.raisedAmount),
        targetAmount: Number(r.targetAmount),
        donationsCount: Number(r.donationsCount),
      },
    ]),
  );
}
