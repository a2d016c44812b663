import crypto from 'node:crypto';
import { sealSecret, type Db } from '@lampstand/db';
import type { JobQueue } from '../../jobs.js';
import type { SocialSettings } from '../../schemas/social-posts.js';
import { hasForbiddenLiteralHost } from '../../providers/network-address.js';
import { badRequest } from '../../errors.js';

const newToken = () => crypto.randomBytes(32).toString('base64url');
const feedPath = (token: string) => `/api/social-posts.ics?token=${token}`;

/** The church's social settings; the calendar feed's token is made on first read. */
export async function getSocialSettings(db: Db, tenantId: number): Promise<SocialSettings> {
  await db
    .insertInto('socialSettings')
    .values({ userId: tenantId, feedToken: newToken() })
    .onConflict((oc) => oc.column('userId').doNothing())
    .execute();
  const row = await db
    .selectFrom('socialSettings')
    .selectAll()
    .where('userId', '=', tenantId)
    .executeTakeFirstOrThrow();
  if (!row.feedToken) return regenerateFeedToken(db, tenantId);
  return {
    webhookUrl: row.webhookUrl,
    hasWebhookSecret: !!row.webhookSecret,
    feedPath: feedPath(row.feedToken),
  };
}

/**
 * Set (or clear, with null) the publishing webhook. The first time a URL is set, a signing
 * secret is made and returned once. Posts already due are then picked up by a sweep. A URL whose
 * host is a private, loopback or otherwise non-public address (in any spelling) is refused, unless
 * SOCIAL_WEBHOOK_ALLOW_PRIVATE (`allowPrivate`); a name is checked again at every call.
 */
export async function updateSocialSettings(
  deps: { db: Db; jobs: JobQueue; allowPrivate?: boolean },
  tenantId: number,
  input: { webhookUrl: string | null },
): Promise<SocialSettings & { webhookSecret: string | null }> {
  if (input.webhookUrl && hasForbiddenLiteralHost(input.webhookUrl, deps.allowPrivate ? 'private' : 'public'))
    throw badRequest(
      'Webhook URL must be a public address, not a private, local or reserved network address',
      'webhookUrl',
    );
  await getSocialSettings(deps.db, tenantId);
  const secret = crypto.randomBytes(32).toString('hex');
  const sealed = sealSecret(secret);
  const row = await deps.db
    .updateTable('socialSettings')
    .set((eb) => ({
      webhookUrl: input.webhookUrl,
      webhookSecret:
        input.webhookUrl === null ? eb.ref('webhookSecret') : eb.fn.coalesce('webhookSecret', eb.val(sealed)),
      updatedAt: new Date(),
    }))
    .where('userId', '=', tenantId)
    .returning(['webhookSecret'])
    .executeTakeFirstOrThrow();
  if (input.webhookUrl) await deps.jobs.send('social-post-sweep', { force: true });
  const settings = await getSocialSettings(deps.db, tenantId);
  return { ...settings, webhookSecret: row.webhookSecret === sealed ? secret : null };
}

/** A new signing secret, shown once (the old one stops working at once). */
export async function regenerateWebhookSecret(db: Db, tenantId: number): Promise<{ webhookSecret: string }> {
  await getSocialSettings(db, tenantId);
  const webhookSecret = crypto.randomBytes(32).toString('hex');
  await db
    .updateTable('socialSettings')
    .set({ webhookSecret: sealSecret(webhookSecret), updatedAt: new Date() })
    .where('userId', '=', tenantId)
    .execute();
  return { webhookSecret };
}

/** A new feed token: the old feed address stops working. */
export async function regenerateFeedToken(db: Db, tenantId: number): Promise<SocialSettings> {
  await db
    .insertInto('socialSettings')
    .values({ userId: tenantId, feedToken: newToken() })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ feedToken: newToken(), updatedAt: new Date() }))
    .execute();
  return getSocialSettings(db, tenantId);
}
