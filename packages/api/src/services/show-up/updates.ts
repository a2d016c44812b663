import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import type { createUpdateSchema, projectUpdateSchema, supporterSchema } from '../../schemas/show-up.js';
import { ownedProject, getProject } from './projects.js';
import { resolveImage, toStoredImage } from './project-images.js';
import { recordEvent } from '../events/record.js';

type CreateUpdate = z.output<typeof createUpdateSchema>;

/** Public: a project's updates, newest first. */
export async function listUpdates(
  db: Db,
  viewerId: number | null,
  { id }: { id: number },
): Promise<z.input<typeof projectUpdateSchema>[]> {
  await getProject(db, viewerId, { id });
  const rows = await db
    .selectFrom('showUpUpdates')
    .select(['id', 'projectId', 'title', 'content', 'images', 'createdAt'])
    .where('projectId', '=', id)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
    .execute();
  return rows;
}

/** Only the project's owner posts updates (403 for anyone else, nothing written). */
export async function createUpdate(
  db: Db,
  tenantId: number,
  input: CreateUpdate,
): Promise<z.input<typeof projectUpdateSchema>> {
  const project = await ownedProject(db, tenantId, input.projectId);
  const images = await Promise.all(
    input.images.map((img, i) => resolveImage(db, tenantId, { image: img, field: `images.${i}` })),
  );
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('showUpUpdates')
      .values({
        userId: tenantId,
        projectId: input.projectId,
        title: input.title,
        content: input.content,
        images: JSON.stringify(images.map(toStoredImage)),
      })
      .returning(['id', 'projectId', 'title', 'content', 'images', 'createdAt'])
      .executeTakeFirstOrThrow();
    await recordEvent(trx, tenantId, {
      type: 'project.update_posted',
      payload: { project: { id: project.id, name: project.title }, update: { id: row.id, name: row.title } },
    });
    return row;
  });
}

/**
 * Public: completed gifts, newest first. No email ever; anonymous gifts carry no name; a message
 * only when its donor ticked 'Show my message on the project page' (staff see it in Donations).
 */
export async function listSupporters(
  db: Db,
  viewerId: number | null,
  { id }: { id: number },
): Promise<z.input<typeof supporterSchema>[]> {
  await getProject(db, viewerId, { id });
  // The project's gifts in the ledger: completed gifts with a line to its fund.
  const rows = await db
    .selectFrom('gifts as g')
    .innerJoin('giftLines as l', 'l.giftId', 'g.id')
    .innerJoin('funds as f', 'f.id', 'l.fundId')
    .select(['g.id', 'l.amountCents', 'g.donorName', 'g.isAnonymous', 'g.note', 'g.showNote'])
    .select(['g.completedAt', 'g.createdAt'])
    .where('f.projectId', '=', id)
    .where('g.status', '=', 'completed')
    .orderBy('g.completedAt', 'desc')
    .orderBy('g.id', 'desc')
    .limit(500)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    amount: r.amountCents / 100,
    donorName: r.isAnonymous || !r.donorName ? 'Anonymous' : r.donorName,
    isAnonymous: r.isAnonymous,
    message: r.showNote ? r.note : null,
    createdAt: r.completedAt ?? r.createdAt,
  }));
}
