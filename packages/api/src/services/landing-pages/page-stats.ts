import { sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import type { landingPageStatsSchema } from '../../schemas/landing-pages.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { visitSourceLabels } from '../sources/labels.js';
import { signupDifferences } from './signup-values.js';
import { getLandingPage } from './pages.js';

const pct = (n: number, of: number) => (of > 0 ? Math.round((1000 * n) / of) / 10 : 0);

/** A page's visits, sources, conversion and latest sign-ups over its last `days` days. */
export async function landingPageStats(
  db: Db,
  tenantId: number,
  input: { id: number; days: number },
): Promise<z.input<typeof landingPageStatsSchema>> {
  await getLandingPage(db, tenantId, { id: input.id });
  const since = sql<string>`(current_date - ${input.days - 1}::int)`;
  const [totals, perDay, sources, signups, recent] = await Promise.all([
    db
      .selectFrom('landingPageVisits')
      .select([
        sql<number>`count(*)::int`.as('visits'),
        sql<number>`count(distinct (day, visitor_hash))::int`.as('unique'),
      ])
      .where('pageId', '=', input.id)
      .where('userId', '=', tenantId)
      .where('day', '>=', since)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('landingPageVisits')
      .select([
        sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'),
        sql<number>`count(*)::int`.as('visits'),
        sql<number>`count(distinct visitor_hash)::int`.as('unique'),
      ])
      .where('pageId', '=', input.id)
      .where('userId', '=', tenantId)
      .where('day', '>=', since)
      .groupBy('day')
      .orderBy('day')
      .execute(),
    db
      .selectFrom('landingPageVisits')
      .select(['sourceKind', 'sourceValue', sql<number>`count(*)::int`.as('visits')])
      .where('pageId', '=', input.id)
      .where('userId', '=', tenantId)
      .where('day', '>=', since)
      .groupBy(['sourceKind', 'sourceValue'])
      .orderBy(sql`count(*)`, 'desc')
      .limit(50)
      .execute(),
    db
      .selectFrom('landingPageSignups')
      .select([sql<number>`count(*)::int`.as('all'), sql<number>`count(confirmed_at)::int`.as('confirmed')])
      .where('pageId', '=', input.id)
      .where('userId', '=', tenantId)
      .where(sql<boolean>`created_at >= ${since}::date`)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('landingPageSignups as s')
      .leftJoin('contacts as c', (j) => j.onRef('c.id', '=', 's.contactId').on('c.userId', '=', tenantId))
      .select([
        's.id',
        's.name',
        's.email',
        's.contactId',
        's.confirmedAt',
        's.sourceKind',
        's.sourceValue',
        's.createdAt',
        's.phone',
        's.city',
        's.postalCode',
        'c.phone as contactPhone',
        'c.phoneE164 as contactPhoneE164',
        'c.metadata as contactMetadata',
      ])
      .where('s.pageId', '=', input.id)
      .where('s.userId', '=', tenantId)
      .orderBy('s.createdAt', 'desc')
      .orderBy('s.id', 'desc')
      .limit(20)
      .execute(),
  ]);
  const [churchCountry, sourceLabel] = await Promise.all([
    churchCountryCode(db, tenantId),
    visitSourceLabels(db, tenantId, [
      ...sources.map((r) => ({ kind: r.sourceKind, value: r.sourceValue })),
      ...recent.map((r) => ({ kind: r.sourceKind, value: r.sourceValue })),
    ]),
  ]);
  return {
    days: input.days,
    visits: Number(totals.visits),
    uniqueVisitors: Number(totals.unique),
    signups: Number(signups.all),
    confirmedSignups: Number(signups.confirmed),
    conversionRate: pct(Number(signups.all), Number(totals.unique)),
    perDay: perDay.map((r) => ({ day: r.day, visits: Number(r.visits), uniqueVisitors: Number(r.unique) })),
    sources: sources.map((r) => ({
      kind: r.sourceKind,
      value: r.sourceValue,
      label: sourceLabel({ kind: r.sourceKind, value: r.sourceValue }),
      visits: Number(r.visits),
    })),
    recentSignups: recent.map((r) => ({
      id: r.id,
      name: r.name,
      email: r.email,
      contactId: r.contactId,
      confirmed: r.confirmedAt !== null,
      sourceKind: r.sourceKind,
      sourceValue: r.sourceValue,
      sourceLabel: sourceLabel({ kind: r.sourceKind, value: r.sourceValue }),
      createdAt: r.createdAt,
      differences: r.contactId
        ? signupDifferences(
            { phone: r.phone, city: r.city, postalCode: r.postalCode },
            { phone: r.contactPhone, phoneE164: r.contactPhoneE164, metadata: r.contactMetadata ?? {} },
            churchCountry,
          )
        : [],
    })),
  };
}
