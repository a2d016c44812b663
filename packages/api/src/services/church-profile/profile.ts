import { bypassDb, sql, type Db } from '@lampstand/db';
import { conflict, isUniqueViolation } from '../../errors.js';
import { HANDLE_TAKEN, type ChurchProfile, type updateChurchProfileSchema } from '../../schemas/church-profile.js';
import { slugOf } from '../../shared/text.js';
import type { z } from 'zod';

/** A handle suggested from a church's name: 'Grace City Church!' → 'grace-city-church'. */
function handleFrom(name: string): string {
  const base = slugOf(name, 40);
  return base.length >= 3 ? base : `${base || 'church'}-home`.replace(/^-/, '');
}

/** A handle given up keeps redirecting to its church this long (and no other church may take it). */
const REDIRECT_DAYS = 365;

/**
 * Handles are one namespace for every church (public addresses): current handles and the old ones
 * still redirecting. Read through the row-level security bypass, handles only (docs/security.md).
 */
async function takenHandles(db: Db, tenantId: number, like: string): Promise<Set<string>> {
  const all = bypassDb(db);
  const [current, old] = await Promise.all([
    all
      .selectFrom('churchProfiles')
      .select('handle')
      .where('handle', 'like', like)
      .where('userId', '<>', tenantId)
      .execute(),
    all
      .selectFrom('churchHandleRedirects')
      .select('handle')
      .where('handle', 'like', like)
      .where('userId', '<>', tenantId)
      .where('expiresAt', '>', sql<Date>`now()`)
      .execute(),
  ]);
  return new Set([...current, ...old].map((r) => r.handle));
}

/** The first free handle from the church's name: 'grace-city', else 'grace-city-2', … */
async function suggestHandle(db: Db, tenantId: number, churchName: string): Promise<string> {
  const base = handleFrom(churchName).slice(0, 36).replace(/-+$/, '');
  const taken = await takenHandles(db, tenantId, `${base}%`);
  let handle = base;
  for (let n = 2; taken.has(handle); n++) handle = `${base}-${n}`;
  return handle;
}

export async function getChurchProfile(db: Db, tenantId: number, publicUrl: string): Promise<ChurchProfile> {
  const [row, church] = await Promise.all([
    db.selectFrom('churchProfiles').selectAll().where('userId', '=', tenantId).executeTakeFirst(),
    db.selectFrom('users').select('churchName').where('id', '=', tenantId).executeTakeFirstOrThrow(),
  ]);
  const handle = row?.handle ?? (await suggestHandle(db, tenantId, church.churchName ?? ''));
  return {
    handle,
    saved: !!row,
    description: row?.description ?? '',
    logo: row?.logoUrl ? { url: row.logoUrl, thumbnailUrl: row.logoThumbnailUrl } : null,
    address: row?.address ?? '',
    serviceTimes: row?.serviceTimes ?? '',
    website: row?.website ?? null,
    url: `${publicUrl}/c/${handle}`,
  };
}

/**
 * Saves the church's public profile. A new handle must be free (not another church's, nor one
 * still redirecting to another church: 409 'This handle is taken' on the handle); the old one
 * redirects to the new for a year. Changes of handle are serialized platform-wide (they are rare),
 * so two churches cannot take one handle at once.
 */
export async function updateChurchProfile(
  db: Db,
  tenantId: number,
  input: z.output<typeof updateChurchProfileSchema>,
  publicUrl: string,
): Promise<ChurchProfile> {
  try {
    await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('lampstand:church-handles'))`.execute(trx);
      const before = await trx
        .selectFrom('churchProfiles')
        .select('handle')
        .where('userId', '=', tenantId)
        .forUpdate()
        .executeTakeFirst();
      if (before?.handle !== input.handle) {
        // Read on the root handle (the bypass of a transaction would keep the church's scope): every
        // change of handle holds the lock above until it commits, so what it reads is current.
        if ((await takenHandles(db, tenantId, input.handle)).has(input.handle)) throw conflict(HANDLE_TAKEN, 'handle');
        // Its own old handle is the church's to take back; the one it leaves redirects for a year.
        await trx.deleteFrom('churchHandleRedirects').where('handle', '=', input.handle).execute();
        if (before) {
          await trx
            .insertInto('churchHandleRedirects')
            .values({
              handle: before.handle,
              userId: tenantId,
              expiresAt: sql<Date>`now() + make_interval(days => ${REDIRECT_DAYS})`,
            })
            .onConflict((oc) =>
              oc.column('handle').doUpdateSet({ userId: tenantId, expiresAt: sql`excluded.expires_at` }),
            )
            .execute();
        }
      }
      const values = {
        handle: input.handle,
        description: input.description,
        logoUrl: input.logo?.url ?? null,
        logoThumbnailUrl: input.logo?.thumbnailUrl ?? null,
        address: input.address,
        serviceTimes: input.serviceTimes,
        website: input.website,
        updatedAt: new Date(),
      };
      await trx
        .insertInto('churchProfiles')
        .values({ userId: tenantId, ...values })
        .onConflict((oc) => oc.column('userId').doUpdateSet(values))
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(HANDLE_TAKEN, 'handle');
    throw err;
  }
  return getChurchProfile(db, tenantId, publicUrl);
}
