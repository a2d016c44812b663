import { bypassDb, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, forbidden, notFound, type AppError } from '../../errors.js';
import type { createProjectSchema, projectSchema, UpdateProjectInput } from '../../schemas/show-up.js';
import { resolveFields, toStoredImage } from './project-images.js';
import { invalidateShowUpLists } from './project-list.js';
import { RAISED_AMOUNT, SUPPORTERS } from './project-totals.js';

// One project: read, create, change, and the owner's check before a write. The public list is in
// project-list.ts, the raised amounts in project-totals.ts, images in project-images.ts.

type ProjectFields = z.output<typeof createProjectSchema>;
type EditFields = Partial<Omit<UpdateProjectInput, 'id'>>;

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
