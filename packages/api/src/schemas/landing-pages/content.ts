import { z } from 'zod';
import { boundedArraySchema, textSchema } from '../common.js';
import { type BlockType, blockSchema, lineSchema } from './blocks.js';

// ---------------------------------------------------------------------------------------------
// The content object: the spec's fields plus the blocks
// ---------------------------------------------------------------------------------------------

export const landingPageContentSchema = z.object({
  headline: lineSchema('Headline', 200),
  subheading: lineSchema('Subheading', 500),
  mainContent: lineSchema('Main content', 20_000),
  callToAction: lineSchema('Call to action', 100),
  keyPoints: boundedArraySchema(textSchema('Key point', 300), 'Key points', 12).default([]),
  blocks: boundedArraySchema(blockSchema, 'Blocks', 40).default([]),
});
export type LandingPageContent = z.infer<typeof landingPageContentSchema>;

/**
 * Where the spec's fields stand on the public page: headline and subheading, the call-to-action
 * button, the main content, the numbered Key Highlights. A page saved with the fields only gets
 * its blocks in this order, and AI generation adds a missing block at its place in it.
 */
export const SPEC_BLOCK_ORDER = ['hero', 'cta', 'text', 'highlights'] as const satisfies readonly BlockType[];
