import type { Db, SocialPostsTable } from '@lampstand/db';
import type { z } from 'zod';
import type { Selectable } from 'kysely';
import { conflict } from '../../errors.js';
import type { JobQueue } from '../../jobs.js';
import type { SocialPlatform, socialPostSchema, SocialPostFields } from '../../schemas/social-posts.js';
import { cancelSocialPublish, scheduleSocialPublish } from './publish.js';
import { findChurchRow } from '../church-rows.js';

type Row = Selectable<SocialPostsTable>;

function toSocialPost(r: Row): z.input<typeof socialPostSchema> {
  return {
    id: r.id,
    userId: r.userId,
    content: r.content,
    scheduledFor: r.scheduledFor,
    platforms: r.platforms as SocialPlatform[],
    status: r.status,
    imageUrl: r.imageUrl,
    linkUrl: r.linkUrl,
    tags: r.tags,
    postedAt: r.postedAt,
    error: r.publishError,
    attempts: r.publishAttempts,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** At most this many posts in one answer (a year of a busy calendar). */
const MAX_POSTS = 2000;

/** The church's posts by time, optionally those scheduled from `from` (inclusive) to `to` (exclusive). */
export async function listSocialPosts(
  db: Db,
  tenantId: number,
  opts: { from?: string; to?: string } = {},
): Promise<z.input<typeof socialPostSchema>[]> {
  let q = db.selectFrom('socialPosts').selectAll().where('userId', '=', tenantId);
  if (opts.from) q = q.where('scheduledFor', '>=', new Date(opts.from));
  if (opts.to) q = q.where('scheduledFor', '<', new Date(opts.to));
  const rows = await q.orderBy('scheduledFor').orderBy('id').limit(MAX_POSTS).execute();
  return rows.map(toSocialPost);
}

export async function getSocialPost(db: Db, tenantId: number, id: number): Promise<z.input<typeof socialPostSchema>> {
  const row = await findChurchRow(db, tenantId, { table: 'socialPosts', id: id, missing: 'Post not found' });
  return toSocialPost(row);
}

const values = (input: SocialPostFields) => ({
  content: input.content,
  scheduledFor: new Date(input.scheduledFor),
  platforms: input.platforms,
  status: input.status,
  imageUrl: input.imageUrl,
  linkUrl: input.linkUrl,
  tags: input.tags,
});

export async function createSocialPost(
  deps: { db: Db; jobs: JobQueue },
  tenantId: number,
  input: SocialPostFields,
): Promise<z.input<typeof socialPostSchema>> {
  const row = await deps.db
    .insertInto('socialPosts')
    .values({
      userId: tenantId,
      ...values(input),
      postedAt: input.status === 'posted' ? new Date() : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await scheduleSocialPublish(deps, row);
  return toSocialPost(row);
}

const BEING_PUBLISHED = 'This post is being published right now; try again in a moment';

/**
 * Replace a post's fields (PUT). A new time or status starts publishing afresh: tries, the
 * retry time and the last error are cleared, the job queued for the old time is cancelled and
 * one is queued for the new time. A post whose publish is in flight cannot change (409).
 */
export async function updateSocialPost(
  deps: { db: Db; jobs: JobQueue; claimLeaseSeconds: number },
  tenantId: number,
  opts: { id: number; fields: SocialPostFields },
): Promise<z.input<typeof socialPostSchema>> {
  const next = values(opts.fields);
  const { row, replanned } = await deps.db.transaction().execute(async (trx) => {
    const cur = await findChurchRow(trx, tenantId, {
      table: 'socialPosts',
      id: opts.id,
      forUpdate: true,
      missing: 'Post not found',
    });
    assertNotPublishing(cur, deps.claimLeaseSeconds);
    const replanned = cur.status !== next.status || cur.scheduledFor.getTime() !== next.scheduledFor.getTime();
    const updated = await trx
      .updateTable('socialPosts')
      .set({
        ...next,
        postedAt: next.status === 'posted' ? (cur.postedAt ?? new Date()) : null,
        // A post saved at the same time and status keeps its last error (why it failed, or is retrying).
        publishError: replanned ? null : cur.publishError,
        ...(replanned ? { publishAttempts: 0, publishNextAttemptAt: null } : {}),
        updatedAt: new Date(),
      })
      .where('id', '=', opts.id)
      .where('userId', '=', tenantId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row: updated, replanned };
  });
  await scheduleSocialPublish(deps, row, { replanned });
  return toSocialPost(row);
}

/**
 * Delete a post and cancel its queued publish job; a post whose publish is in flight cannot be
 * deleted (409) until the receiver has answered. (A retry or sweep job queued meanwhile finds
 * nothing and does nothing.)
 */
export async function deleteSocialPost(
  deps: { db: Db; jobs: JobQueue; claimLeaseSeconds: number },
  tenantId: number,
  id: number,
): Promise<{ id: number }> {
  const deleted = await deps.db.transaction().execute(async (trx) => {
    const cur = await findChurchRow(trx, tenantId, {
      table: 'socialPosts',
      id,
      forUpdate: true,
      missing: 'Post not found',
    });
    assertNotPublishing(cur, deps.claimLeaseSeconds);
    await trx.deleteFrom('socialPosts').where('id', '=', id).where('userId', '=', tenantId).execute();
    return cur;
  });
  await cancelSocialPublish(deps.jobs, deleted);
  return { id };
}

function assertNotPublishing(row: Row, leaseSeconds: number): void {
  if (
    row.status === 'scheduled' &&
    row.publishClaimedAt &&
    row.publishClaimedAt.getTime() > Date.now() - leaseSeconds * 1000
  )
    throw conflict(BEING_PUBLISHED);
}
