import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import type { Block, ImageRef, PublicBlock } from '../../schemas/landing-pages.js';
import { toLandingPage } from './pages.js';

// A published page as everyone sees it: found by its slug, without the church's internal ids.

/** A published page by its slug, for everyone (a draft or a missing page is not found). */
export async function getPublishedLandingPage(db: Db, input: { slug: string }) {
  const row = await db
    .selectFrom('landingPages as p')
    .innerJoin('users as u', 'u.id', 'p.userId')
    .selectAll('p')
    .select('u.churchName')
    .where('p.slug', '=', input.slug)
    .where('p.published', '=', true)
    .executeTakeFirst();
  if (!row) throw notFound("The landing page you're looking for doesn't exist or is not published yet.");
  return { ...toLandingPage(row), churchName: row.churchName };
}

/** A block without the church's internal ids (see `publicLandingPageSchema`). */
function toPublicBlock(block: Block): PublicBlock {
  const image = (ref: ImageRef | null) => (ref ? { url: ref.url, thumbnailUrl: ref.thumbnailUrl } : null);
  switch (block.type) {
    case 'hero':
      return { ...block, backgroundImage: image(block.backgroundImage) };
    case 'image':
      return { ...block, image: image(block.image) };
    case 'signup': {
      const { listId: _internal, ...rest } = block;
      return rest;
    }
    default:
      return block;
  }
}

/** What `GET /api/landing-pages/slug/{slug}` answers: only what the public page needs. */
export function toPublicLandingPage(page: Awaited<ReturnType<typeof getPublishedLandingPage>>) {
  return {
    name: page.name,
    slug: page.slug,
    publishedAt: page.publishedAt,
    churchName: page.churchName,
    content: { ...page.content, blocks: page.content.blocks.map(toPublicBlock) },
  };
}
