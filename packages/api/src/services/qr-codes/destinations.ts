import type { Db } from '@lampstand/db';
import type { QrDestinationSource } from '../../schemas/qr-codes.js';

/**
 * The church's own pages a code can point at, with their public addresses (PUBLIC_URL, so a scan
 * of them is attributed to the code): its landing pages (drafts marked: they answer 404 until
 * published) and its Show Up projects, newest first.
 */
export async function listQrDestinations(
  db: Db,
  tenantId: number,
  opts: { publicUrl: string },
): Promise<QrDestinationSource[]> {
  const base = opts.publicUrl.replace(/\/$/, '');
  const [pages, projects] = await Promise.all([
    db
      .selectFrom('landingPages')
      .select(['name', 'slug', 'published'])
      .where('userId', '=', tenantId)
      .orderBy('updatedAt', 'desc')
      .limit(200)
      .execute(),
    db
      .selectFrom('showUpProjects')
      .select(['id', 'title'])
      .where('userId', '=', tenantId)
      .orderBy('id', 'desc')
      .limit(200)
      .execute(),
  ]);
  return [
    {
      group: 'Landing pages',
      options: pages.map((p) => ({
        label: p.published ? p.name : `${p.name} (draft, not published yet)`,
        url: `${base}/p/${encodeURIComponent(p.slug)}`,
      })),
    },
    {
      group: 'Show Up projects',
      options: projects.map((p) => ({ label: p.title, url: `${base}/show-up/${p.id}` })),
    },
  ];
}
