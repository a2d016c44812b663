import type { Db } from '@lampstand/db';

/**
 * The nested documents of an export, as JSON beside the flat CSVs: landing pages with their
 * content, journeys with every version of their steps, service plans with their items and songs.
 * Each is written as a JSON array a page of records at a time.
 */

const PAGE = 100;

export interface NestedDocument {
  file: string;
  description: string;
  /** The document's text, a piece at a time (together one JSON array). */
  pieces(db: Db, tenantId: number): AsyncGenerator<string>;
}

/** A JSON array of `records`, each page of which `load` completes. */
async function* jsonArray<T extends { id: number }>(
  page: (afterId: number) => Promise<T[]>,
  complete: (rows: T[]) => Promise<unknown[]>,
): AsyncGenerator<string> {
  yield '[';
  let afterId = 0;
  let first = true;
  for (;;) {
    const rows = await page(afterId);
    if (rows.length === 0) break;
    for (const record of await complete(rows)) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(record, null, 2)}`;
      first = false;
    }
    afterId = rows[rows.length - 1]!.id;
  }
  yield '\n]\n';
}

const landingPages: NestedDocument = {
  file: 'json/landing-pages.json',
  description: 'Landing pages with their whole content (sections, form, styles) as the editor keeps it.',
  pieces: (db, tenantId) =>
    jsonArray(
      (afterId) =>
        db
          .selectFrom('landingPages')
          .select(['id', 'name', 'slug', 'published', 'publishedAt', 'content', 'createdAt', 'updatedAt'])
          .where('userId', '=', tenantId)
          .where('id', '>', afterId)
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      (rows) => Promise.resolve(rows),
    ),
};

const journeys: NestedDocument = {
  file: 'json/journeys.json',
  description: 'Journeys with every saved version of their steps (the definition the journey runs).',
  pieces: (db, tenantId) =>
    jsonArray(
      (afterId) =>
        db
          .selectFrom('journeys')
          .select(['id', 'name', 'description', 'status', 'currentVersion', 'activatedAt', 'createdAt', 'updatedAt'])
          .where('userId', '=', tenantId)
          .where('id', '>', afterId)
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      async (rows) => {
        const versions = await db
          .selectFrom('journeyVersions')
          .select(['journeyId', 'version', 'definition', 'createdAt'])
          .where('userId', '=', tenantId)
          .where(
            'journeyId',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('journeyId')
          .orderBy('version')
          .execute();
        return rows.map((j) => ({
          ...j,
          versions: versions
            .filter((v) => v.journeyId === j.id)
            .map(({ version, definition, createdAt }) => ({ version, definition, createdAt })),
        }));
      },
    ),
};

const servicePlans: NestedDocument = {
  file: 'json/service-plans.json',
  description: 'Service plans with their items in order and the songs they use.',
  pieces: (db, tenantId) =>
    jsonArray(
      (afterId) =>
        db
          .selectFrom('servicePlans')
          .selectAll()
          .where('userId', '=', tenantId)
          .where('id', '>', afterId)
          .orderBy('id')
          .limit(PAGE)
          .execute(),
      async (rows) => {
        const ids = rows.map((r) => r.id);
        const items = await db
          .selectFrom('serviceItems')
          .selectAll()
          .where('userId', '=', tenantId)
          .where('servicePlanId', 'in', ids)
          .orderBy('servicePlanId')
          .orderBy('position')
          .execute();
        const songs = await db
          .selectFrom('servicePlanSongs')
          .selectAll()
          .where('userId', '=', tenantId)
          .where('servicePlanId', 'in', ids)
          .orderBy('id')
          .execute();
        return rows.map(({ userId: _church, ...plan }) => ({
          ...plan,
          items: items.filter((i) => i.servicePlanId === plan.id).map(({ userId: _u, ...item }) => item),
          songs: songs.filter((s) => s.servicePlanId === plan.id).map(({ userId: _u, ...song }) => song),
        }));
      },
    ),
};

export const NESTED_DOCUMENTS: readonly NestedDocument[] = [landingPages, journeys, servicePlans];
