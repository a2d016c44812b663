import { z } from 'zod';
import { boundedArray, textSchema } from '../common.js';
import { type Block, type BlockType, blockSchema, line } from './blocks.js';

// ---------------------------------------------------------------------------------------------
// The content object: the spec's fields plus the blocks
// ---------------------------------------------------------------------------------------------

export const landingPageContentSchema = z.object({
  headline: line('Headline', 200),
  subheading: line('Subheading', 500),
  mainContent: line('Main content', 20_000),
  callToAction: line('Call to action', 100),
  keyPoints: boundedArray(textSchema('Key point', 300), 'Key points', 12).default([]),
  blocks: boundedArray(blockSchema, 'Blocks', 40).default([]),
});
export type LandingPageContent = z.infer<typeof landingPageContentSchema>;

/**
 * Where the spec's fields stand on the public page: headline and subheading, the call-to-action
 * button, the main content, the numbered Key Highlights. A page saved with the fields only gets
 * its blocks in this order, and AI generation adds a missing block at its place in it.
 */
export const SPEC_BLOCK_ORDER = ['hero', 'cta', 'text', 'highlights'] as const satisfies readonly BlockType[];

/**
 * One truth for both views of a page: the blocks. A page saved with the spec's fields only (an
 * older client, the AI generator, a template) gets the default blocks built from them; a page
 * with blocks gets the spec's fields read back from its first hero, text, button and highlights.
 */
export function normalizeContent(content: LandingPageContent): LandingPageContent {
  if (content.blocks.length === 0) {
    const blocks: Block[] = [
      {
        id: 'hero',
        type: 'hero',
        headline: content.headline,
        subheading: content.subheading,
        backgroundImage: null,
      },
    ];
    if (content.callToAction) blocks.push({ id: 'cta', type: 'cta', text: content.callToAction, link: null });
    if (content.mainContent) blocks.push({ id: 'main', type: 'text', html: content.mainContent });
    if (content.keyPoints.length)
      blocks.push({ id: 'highlights', type: 'highlights', title: 'Key Highlights', items: content.keyPoints });
    return { ...content, blocks };
  }
  const first = <T extends BlockType>(type: T) =>
    content.blocks.find((b): b is Extract<Block, { type: T }> => b.type === type);
  return {
    headline: first('hero')?.headline ?? '',
    subheading: first('hero')?.subheading ?? '',
    mainContent: first('text')?.html ?? '',
    callToAction: first('cta')?.text ?? '',
    keyPoints: first('highlights')?.items ?? [],
    blocks: content.blocks,
  };
}
