import { ICalEventStatus, renderCalendar, type CalendarEvent } from '../../render/ical.js';
import type { Db } from '@lampstand/db';
import { SOCIAL_PLATFORM_LABELS, SOCIAL_STATUS_LABELS, type SocialPlatform } from '../../schemas/social-posts.js';

/** Posts from this many days back are in the feed (and every later one). */
const FEED_DAYS_BACK = 90;
const FEED_MAX = 2000;

/**
 * The church's posts as an iCalendar feed, for staff to subscribe to in their own calendar app.
 * Null when no church has this token (the caller answers 404).
 */
export async function socialPostsFeed(db: Db, opts: { token: string; publicUrl: string }): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(opts.token)) return null;
  const church = await db
    .selectFrom('socialSettings as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .select(['s.userId', 'u.churchName'])
    .where('s.feedToken', '=', opts.token)
    .executeTakeFirst();
  if (!church) return null;
  const posts = await db
    .selectFrom('socialPosts')
    .selectAll()
    .where('userId', '=', church.userId)
    .where('scheduledFor', '>=', new Date(Date.now() - FEED_DAYS_BACK * 86_400_000))
    .orderBy('scheduledFor')
    .limit(FEED_MAX)
    .execute();
  const host = new URL(opts.publicUrl).hostname || 'lampstand';
  const events: CalendarEvent[] = [];
  for (const p of posts) {
    const platforms = p.platforms.map((x) => SOCIAL_PLATFORM_LABELS[x as SocialPlatform] ?? x).join(', ');
    const firstLine = p.content.split('\n')[0] ?? '';
    events.push({
      id: `social-post-${p.id}@${host}`,
      start: p.scheduledFor,
      end: new Date(p.scheduledFor.getTime() + 15 * 60_000),
      stamp: p.updatedAt,
      summary: `${platforms}: ${firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine}`,
      description: [
        p.content,
        '',
        `Status: ${SOCIAL_STATUS_LABELS[p.status]}`,
        p.status === 'failed' && p.publishError ? `Reason: ${p.publishError}` : null,
        p.linkUrl ? `Link: ${p.linkUrl}` : null,
        p.tags.length ? `Tags: ${p.tags.map((t) => `#${t}`).join(' ')}` : null,
      ]
        .filter((l) => l !== null)
        .join('\n'),
      url: `${opts.publicUrl}/social-blast`,
      status: p.status === 'draft' ? ICalEventStatus.TENTATIVE : ICalEventStatus.CONFIRMED,
    });
  }
  return renderCalendar(
    {
      name: `${church.churchName}: social posts`,
      prodId: { company: 'Lampstand', product: 'Social Blast', language: 'EN' },
      ttl: 15 * 60,
    },
    events,
  );
}
