// The landing pages' schemas, one file per part of the feature.

export * from './landing-pages/slugs.js';
export {
  imageRefSchema,
  type ImageRef,
  heroBlockSchema,
  textBlockSchema,
  highlightsBlockSchema,
  imageBlockSchema,
  ctaLinkSchema,
  type CtaLink,
  ctaBlockSchema,
  eventBlockSchema,
  showUpBlockSchema,
  SIGNUP_FIELDS,
  signupBlockSchema,
  blockSchema,
  type Block,
  type BlockType,
  BLOCK_TYPES,
} from './landing-pages/blocks.js';
export * from './landing-pages/content.js';
export * from './landing-pages/pages.js';
export * from './landing-pages/ai-copy.js';
export * from './landing-pages/signup.js';
