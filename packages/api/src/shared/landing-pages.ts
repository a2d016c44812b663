import { slugOf } from './text.js';
import type { Block, BlockType } from '../schemas/landing-pages/blocks.js';
import type { LandingPageContent } from '../schemas/landing-pages/content.js';

// Landing pages' blocks and content: a new block, content brought to today's shape, a slug from a name.

/** A new block of a type with its empty (valid) fields. */
export function newBlock(type: BlockType, id: string): Block {
  switch (type) {
    case 'hero':
      return { id, type, headline: '', subheading: '', backgroundImage: null };
    case 'text':
      return { id, type, html: '' };
    case 'highlights':
      return { id, type, title: 'Key Highlights', items: [] };
    case 'image':
      return { id, type, image: null, alt: '', caption: '' };
    case 'cta':
      return { id, type, text: '', link: null };
    case 'event':
      return { id, type, title: '', date: null, startTime: null, endTime: null, place: '', address: '', mapUrl: '' };
    case 'showup':
      return { id, type, projectId: null };
    case 'groups':
      return { id, type, title: 'Find a group', groupType: '' };
    case 'register':
      return { id, type, eventId: null, buttonText: 'Register' };
    case 'signup':
      return {
        id,
        type,
        title: 'Stay in touch',
        description: '',
        buttonText: 'Sign up',
        listId: null,
        fields: [],
      };
  }
}

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

/** 'Easter Sunday 2026!' -> 'easter-sunday-2026' (the suggestion; the user may change it). */
export function slugify(name: string): string {
  return slugOf(name, 80);
}
