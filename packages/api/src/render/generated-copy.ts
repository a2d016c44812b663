import { SPEC_BLOCK_ORDER, type Block } from '../schemas/landing-pages.js';
import { newBlock } from '../shared/landing-pages.js';
import { escapeHtml } from './html.js';

/** The generator's answer for a whole page (`aiGenerator.landingPage`). */
export interface GeneratedCopy {
  headline: string;
  subheading: string;
  mainContent: string;
  callToAction: string;
  keyPoints: string[];
}

type SpecType = (typeof SPEC_BLOCK_ORDER)[number];

/**
 * The page's blocks with generated copy in them. The page keeps its order: the first hero, button,
 * text and highlights block each get their copy where they stand; a missing one is added at its
 * place in `SPEC_BLOCK_ORDER` (after the nearest type before it there that the page has, else
 * before the nearest one after it, else first), never after unrelated blocks such as a sign-up form. Blank key points
 * are dropped.
 */
export function withGeneratedCopy(blocks: readonly Block[], copy: GeneratedCopy, newId: () => string): Block[] {
  const next = [...blocks];
  const fill: { [T in SpecType]: (b: Extract<Block, { type: T }>) => Block } = {
    hero: (b) => ({ ...b, headline: copy.headline, subheading: copy.subheading }),
    cta: (b) => ({ ...b, text: copy.callToAction }),
    text: (b) => ({
      ...b,
      html: copy.mainContent
        .split(/\n{2,}/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join(''),
    }),
    highlights: (b) => ({ ...b, items: copy.keyPoints.map((k) => k.trim()).filter(Boolean) }),
  };
  const at = (type: SpecType) => next.findIndex((b) => b.type === type);
  SPEC_BLOCK_ORDER.forEach((type, rank) => {
    let i = at(type);
    if (i < 0) {
      const before = SPEC_BLOCK_ORDER.slice(0, rank)
        .map(at)
        .findLast((x) => x >= 0);
      const after = SPEC_BLOCK_ORDER.slice(rank + 1)
        .map(at)
        .find((x) => x >= 0);
      i = before !== undefined ? before + 1 : (after ?? 0);
      next.splice(i, 0, newBlock(type, newId()));
    }
    next[i] = (fill[type] as (b: Block) => Block)(next[i]!);
  });
  return next;
}
