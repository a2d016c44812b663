import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import { escapeHtml } from '../../render/html.js';
import { formatE164 } from '../../render/phone.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { type ChannelDriver, type DeliveryGroup, type RunResult } from '../delivery/engine.js';
import { stalledGroups, deliverGroup } from '../delivery/groups.js';
import type { DeliveryDeps } from '../delivery/channels.js';
import { localDate, localParts } from '../journeys/time.js';
import type { ConversationDigestSetting } from '../../schemas/conversations.js';

/**
 * The staff email digest of unread conversations. Each staff login chooses off,
 * hourly or daily; a scheduled job (`conversation-digest`, every five minutes) writes one delivery
 * of kind 'conversation-digest' per login and period — the unique (user, period) makes it once
 * however often or wherever the job runs — when something is unread, and the one engine sends it
 * (claim, fence, retries, `email.sent`). Hourly periods are UTC hours; a daily digest goes from
 * 8 am in the church's time zone, one per local day.
 */
export const CONVERSATION_DIGESTS: DeliveryGroup = { kind: 'conversation-digest', column: 'user_id' };

/** Daily digests go from this hour, in the church's time zone. */
export const DAILY_DIGEST_HOUR = 8;
/** Conversations listed in one digest (the rest are counted). */
const LISTED = 20;

export async function getConversationDigest(db: Db, userId: number): Promise<{ frequency: ConversationDigestSetting }> {
  const row = await db
    .selectFrom('users')
    .select('conversationDigest')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { frequency: row.conversationDigest };
}

export async function setConversationDigest(db: Db, userId: number, input: { frequency: ConversationDigestSetting }) {
  await db.updateTable('users').set({ conversationDigest: input.frequency }).where('id', '=', userId).execute();
  return { frequency: input.frequency };
}

/** The period a digest of this frequency belongs to now, or null before the daily hour. */
export function digestPeriod(frequency: 'hourly' | 'daily', now: Date, timeZone: string): string | null {
  if (frequency === 'hourly') return `hourly:${now.toISOString().slice(0, 13)}`;
  if (localParts(now, timeZone).hour < DAILY_DIGEST_HOUR) return null;
  return `daily:${localDate(now, timeZone)}`;
}

/**
 * The scheduled job's work: a digest delivery for every login whose period has come and that has
 * unread conversations, at most one per period. Returns the logins to deliver to.
 */
export async function queueConversationDigests(db: Db, now = new Date()): Promise<number[]> {
  const candidates = await db
    .selectFrom('users as u')
    .leftJoin('churchSettings as s', 's.userId', 'u.id')
    .select(['u.id', 'u.email', 'u.churchName', 'u.conversationDigest', 's.timeZone'])
    .where('u.conversationDigest', '!=', 'off')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('conversations as c')
          .select('c.id')
          .whereRef('c.userId', '=', 'u.id')
          .where('c.status', '=', 'open')
          .where('c.unreadCount', '>', 0),
      ),
    )
    .execute();
  const queued: number[] = [];
  for (const u of candidates) {
    if (u.conversationDigest === 'off') continue;
    const period = digestPeriod(u.conversationDigest, now, u.timeZone ?? 'UTC');
    if (!period) continue;
    const row = await db
      .insertInto('deliveries')
      .values({
        userId: u.id,
        channel: 'email',
        kind: 'conversation-digest',
        digestPeriod: period,
        address: u.email,
        firstName: u.churchName,
        lastName: '',
        token: crypto.randomBytes(24).toString('hex'),
      })
      .onConflict((oc) => oc.columns(['userId', 'digestPeriod']).where('kind', '=', 'conversation-digest').doNothing())
      .returning('userId')
      .executeTakeFirst();
    if (row) queued.push(row.userId);
  }
  return queued;
}

interface DigestChurch {
  id: number;
  churchName: string;
}

/** The digest's words: the unread conversations now, newest first (bodies are text, escaped in HTML). */
async function renderDigest(db: Db, church: DigestChurch, publicUrl: string) {
  const rows = await db
    .selectFrom('conversations as c')
    .leftJoin('contacts as p', 'p.id', 'c.contactId')
    .select(['c.id', 'c.phoneE164', 'c.unreadCount', 'c.lastMessagePreview', 'p.firstName', 'p.lastName'])
    .where('c.userId', '=', church.id)
    .where('c.status', '=', 'open')
    .where('c.unreadCount', '>', 0)
    .orderBy('c.lastMessageAt', 'desc')
    .orderBy('c.id', 'desc')
    .execute();
  const code = await churchCountryCode(db, church.id);
  const total = rows.reduce((n, r) => n + Number(r.unreadCount), 0);
  const subject = `${total === 1 ? '1 unread text' : `${total} unread texts`} in ${rows.length === 1 ? '1 conversation' : `${rows.length} conversations`}`;
  const items = rows.slice(0, LISTED).map((r) => {
    const name = `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || 'Unknown';
    return {
      name: `${name} (${formatE164(r.phoneE164, code)})`,
      count: Number(r.unreadCount),
      preview: r.lastMessagePreview,
      id: r.id,
    };
  });
  const more = rows.length - items.length;
  const link = `${publicUrl}/conversations`;
  const text = [
    `${church.churchName}: ${subject}.`,
    '',
    ...items.map((i) => `- ${i.name}, ${i.count} unread: ${i.preview}`),
    ...(more > 0 ? [`…and ${more} more.`] : []),
    '',
    `Answer them: ${link}`,
    'Change how often this comes: Conversations, Email digest.',
  ].join('\n');
  const html =
    `<p>${escapeHtml(church.churchName)}: ${escapeHtml(subject)}.</p><ul>` +
    items
      .map(
        (i) =>
          `<li><a href="${escapeHtml(`${link}/${i.id}`)}">${escapeHtml(i.name)}</a>, ${i.count} unread: ${escapeHtml(i.preview)}</li>`,
      )
      .join('') +
    `</ul>${more > 0 ? `<p>…and ${more} more.</p>` : ''}<p><a href="${escapeHtml(link)}">Answer them</a></p>` +
    '<p>Change how often this comes: Conversations, Email digest.</p>';
  return { subject, text, html };
}

/** The engine's driver of a login's digests (group: the login's deliveries of the kind). */
export function conversationDigestDriver(deps: DeliveryDeps): ChannelDriver<DigestChurch> {
  const { db, email, config } = deps;
  const host = new URL(config.publicUrl).hostname || 'lampstand.local';
  const platform = /<([^>]+)>/.exec(config.emailFrom)?.[1] ?? config.emailFrom;
  return {
    channel: 'email',
    group: CONVERSATION_DIGESTS,
    ratePerSecond: config.emailRatePerSecond,
    concurrency: Math.min(config.emailConcurrency, 4),
    async load(userId) {
      const u = await db.selectFrom('users').select(['id', 'churchName']).where('id', '=', userId).executeTakeFirst();
      return u ?? null;
    },
    async send(church, d) {
      const message = await renderDigest(db, church, config.publicUrl);
      // Staff mail from the platform (Lampstand's own message to the church, not the church's mail).
      return email.send({
        from: `"Lampstand" <${platform}>`,
        to: d.address,
        subject: message.subject,
        html: message.html,
        text: message.text,
        headers: {},
        messageId: `digest-${d.id}.${d.token.slice(0, 12)}@${host}`,
        meta: { userId: church.id, deliveryId: d.id },
      });
    },
    async finish() {},
  };
}

/** The 'conversation-digest-deliver' job: send a login's pending digest; come back for retries. */
const DIGEST_JOB = { name: 'conversation-digest-deliver', payload: (userId: number) => ({ userId }) } as const;

export async function deliverConversationDigest(deps: DeliveryDeps, userId: number): Promise<RunResult> {
  return (await deliverGroup(deps, [conversationDigestDriver(deps)], userId, DIGEST_JOB))[0]!;
}

/** The 'conversation-digest' job (every five minutes): queue the digests due, resume stalled ones. */
export async function runConversationDigests(deps: DeliveryDeps, now = new Date()): Promise<number[]> {
  const queued = await queueConversationDigests(deps.db, now);
  const stalled = await stalledGroups(deps.db, CONVERSATION_DIGESTS, deps.config);
  for (const userId of new Set([...queued, ...stalled]))
    await deps.jobs.send(DIGEST_JOB.name, DIGEST_JOB.payload(userId));
  return queued;
}
