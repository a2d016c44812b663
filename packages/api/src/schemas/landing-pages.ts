import { z } from 'zod';
import {
  boundedArray,
  idSchema,
  isCleanText,
  isoTimestamp,
  requiredTextSchema,
  textSchema,
  urlSchema,
} from './common.js';

// ---------------------------------------------------------------------------------------------
// Slugs and the page form
// ---------------------------------------------------------------------------------------------

export const SLUG_MESSAGE = 'Slug can only contain lowercase letters, numbers, and hyphens';

export const slugSchema = requiredTextSchema('Slug', 100, 'Slug is required').regex(/^[a-z0-9-]+$/, SLUG_MESSAGE);

/** 'Easter Sunday 2026!' -> 'easter-sunday-2026' (the suggestion; the user may change it). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

// ---------------------------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------------------------

const blockIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'Block ID is not valid');

/** An image: one of our uploads (`/uploads/…`) or any http(s) address. */
const imageUrlSchema = z
  .string()
  .trim()
  .max(2048, 'Please enter a valid URL')
  .refine(
    (v) =>
      (/^\/uploads\/[A-Za-z0-9/_.-]+$/.test(v) && !v.includes('..')) ||
      (() => {
        try {
          const u = new URL(v);
          return (u.protocol === 'https:' || u.protocol === 'http:') && isCleanText(v);
        } catch {
          return false;
        }
      })(),
    'Please enter a valid URL',
  );
export const imageRefSchema = z.object({
  id: idSchema('Image ID').optional(),
  url: imageUrlSchema,
  thumbnailUrl: imageUrlSchema.optional(),
});
export type ImageRef = z.infer<typeof imageRefSchema>;

const line = (label: string, max: number) => textSchema(label, max).default('');

export const heroBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('hero'),
  headline: line('Headline', 200),
  subheading: line('Subheading', 500),
  backgroundImage: imageRefSchema.nullable().default(null),
});
export const textBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('text'),
  /** Rich text as HTML (sanitised on the server: paragraphs, headings, lists, bold, italic, links). */
  html: line('Main content', 20_000),
});
export const highlightsBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('highlights'),
  title: line('Title', 200),
  items: boundedArray(textSchema('Key point', 300), 'Key points', 12).default([]),
});
export const imageBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('image'),
  image: imageRefSchema.nullable().default(null),
  alt: line('Image description', 300),
  caption: line('Caption', 300),
});
export const ctaLinkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('url'), url: urlSchema() }),
  /** Scrolls to a sign-up block of the same page. */
  z.object({ kind: z.literal('signup'), blockId: blockIdSchema }),
  /** A Show Up project's page. */
  z.object({ kind: z.literal('showup'), projectId: idSchema('Project ID') }),
  /** The church's giving page (/c/{handle}/give), with a fund chosen when it is one of its public funds. */
  z.object({ kind: z.literal('give'), fundId: idSchema('Fund').nullable().default(null) }),
]);
export type CtaLink = z.infer<typeof ctaLinkSchema>;
export const ctaBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('cta'),
  text: line('Button text', 100),
  link: ctaLinkSchema.nullable().default(null),
});
const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Please enter a valid date')
  .nullable()
  .default(null);
const timeSchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Please enter a valid time')
  .nullable()
  .default(null);
export const eventBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('event'),
  title: line('Event title', 200),
  date: dateSchema,
  startTime: timeSchema,
  endTime: timeSchema,
  place: line('Place', 200),
  address: line('Address', 300),
  mapUrl: z.union([z.literal(''), urlSchema()]).default(''),
});
export const showUpBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('showup'),
  projectId: idSchema('Project ID').nullable().default(null),
});
export const SIGNUP_FIELDS = ['phone', 'city', 'postalCode'] as const;
export const signupBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('signup'),
  title: line('Form title', 200),
  description: line('Form description', 500),
  buttonText: line('Button text', 60),
  /** The contact list sign-ups join (a list of the church). */
  listId: idSchema('List ID').nullable().default(null),
  /** Asked besides name and email (always optional for the visitor). */
  fields: z.array(z.enum(SIGNUP_FIELDS)).max(SIGNUP_FIELDS.length).default([]),
});

export const blockSchema = z.discriminatedUnion('type', [
  heroBlockSchema,
  textBlockSchema,
  highlightsBlockSchema,
  imageBlockSchema,
  ctaBlockSchema,
  eventBlockSchema,
  showUpBlockSchema,
  signupBlockSchema,
]);
export type Block = z.infer<typeof blockSchema>;
export type BlockType = Block['type'];

export const BLOCK_TYPES: { type: BlockType; label: string }[] = [
  { type: 'hero', label: 'Hero' },
  { type: 'text', label: 'Rich text' },
  { type: 'highlights', label: 'Key highlights' },
  { type: 'image', label: 'Image' },
  { type: 'cta', label: 'Call-to-action button' },
  { type: 'event', label: 'Event details' },
  { type: 'showup', label: 'Show Up project' },
  { type: 'signup', label: 'Sign-up form' },
];

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

// ---------------------------------------------------------------------------------------------
// Procedures' inputs and outputs
// ---------------------------------------------------------------------------------------------

export const landingPageFieldsSchema = z.object({
  name: requiredTextSchema('Name', 200),
  slug: slugSchema,
  content: landingPageContentSchema.default({
    headline: '',
    subheading: '',
    mainContent: '',
    callToAction: '',
    keyPoints: [],
    blocks: [],
  }),
  published: z.boolean().default(false),
});
export const updateLandingPageSchema = landingPageFieldsSchema.extend({ id: idSchema('Landing page ID') });
export const landingPageIdSchema = z.object({ id: idSchema('Landing page ID') });
export const publishLandingPageSchema = z.object({ id: idSchema('Landing page ID'), published: z.boolean() });
export const landingPageSlugSchema = z.object({ slug: z.string().max(100) });

export const landingPageSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  slug: z.string(),
  published: z.boolean(),
  publishedAt: isoTimestamp.nullable(),
  content: landingPageContentSchema,
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type LandingPage = z.infer<typeof landingPageSchema>;

export const landingPageListItemSchema = landingPageSchema.extend({
  /** Counted visits in the last 30 days. */
  visits30d: z.number().int(),
  signups: z.number().int(),
});
export type LandingPageListItem = z.infer<typeof landingPageListItemSchema>;

/**
 * The public answer: only what a visitor's page needs. No database ids of the church's own things
 * (the page's id, the list a sign-up form adds people to, uploaded images' ids): the page is
 * addressed by its slug, a sign-up by its block id, an image by its address. A Show Up project's
 * id stays: its public page is addressed by it.
 */
const publicImageRefSchema = imageRefSchema.omit({ id: true });
export const publicBlockSchema = z.discriminatedUnion('type', [
  heroBlockSchema.extend({ backgroundImage: publicImageRefSchema.nullable() }),
  textBlockSchema,
  highlightsBlockSchema,
  imageBlockSchema.extend({ image: publicImageRefSchema.nullable() }),
  ctaBlockSchema,
  eventBlockSchema,
  showUpBlockSchema,
  signupBlockSchema.omit({ listId: true }),
]);
export type PublicBlock = z.infer<typeof publicBlockSchema>;
export const publicLandingPageSchema = z.object({
  name: z.string(),
  slug: z.string(),
  publishedAt: isoTimestamp.nullable(),
  churchName: z.string(),
  content: landingPageContentSchema.extend({ blocks: z.array(publicBlockSchema) }),
});

export const VISIT_SOURCE_KINDS = ['qr', 'link', 'email', 'sms', 'utm', 'referrer', 'direct'] as const;

export const landingPageStatsInputSchema = z.object({
  id: idSchema('Landing page ID'),
  days: z.coerce.number().int().min(1).max(365).default(30),
});
export const landingPageStatsSchema = z.object({
  days: z.number().int(),
  visits: z.number().int(),
  uniqueVisitors: z.number().int(),
  signups: z.number().int(),
  confirmedSignups: z.number().int(),
  /** Percent (one decimal): sign-ups / unique visitors. */
  conversionRate: z.number(),
  perDay: z.array(z.object({ day: z.string(), visits: z.number().int(), uniqueVisitors: z.number().int() })),
  sources: z.array(
    z.object({
      kind: z.enum(VISIT_SOURCE_KINDS),
      value: z.string().nullable(),
      /** In plain words: 'QR code: Christmas bulletin', 'Email: Advent news', 'facebook.com', 'Direct …'. */
      label: z.string(),
      visits: z.number().int(),
    }),
  ),
  recentSignups: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      contactId: z.number().int().nullable(),
      confirmed: z.boolean(),
      sourceKind: z.enum(VISIT_SOURCE_KINDS),
      sourceValue: z.string().nullable(),
      /** The source in plain words, as `sources[].label`. */
      sourceLabel: z.string(),
      createdAt: isoTimestamp,
      /**
       * What the sign-up brought that differs from the contact's own value (a sign-up never
       * overwrites one): staff may 'Use it'.
       */
      differences: z.array(
        z.object({
          field: z.enum(SIGNUP_FIELDS),
          /** What the sign-up brought. */
          value: z.string(),
          /** The contact's own value now. */
          current: z.string(),
        }),
      ),
    }),
  ),
});

/** Staff take a value a sign-up brought (see `differences`) onto its contact. */
export const applySignupValueSchema = z.object({
  id: idSchema('Sign-up ID'),
  field: z.enum(SIGNUP_FIELDS, { error: 'Field must be phone, city or postalCode' }),
});
export const SIGNUP_FIELD_LABELS: Record<(typeof SIGNUP_FIELDS)[number], string> = {
  phone: 'phone',
  city: 'city',
  postalCode: 'postal code',
};

// ---------------------------------------------------------------------------------------------
// AI copy
// ---------------------------------------------------------------------------------------------

export const AI_PURPOSES = ['event', 'ministry', 'announcement', 'service', 'outreach', 'fundraising'] as const;
export const AI_AUDIENCES = ['church members', 'community', 'youth', 'families', 'new visitors', 'everyone'] as const;

export const aiGeneratorInputSchema = z.object({
  churchName: requiredTextSchema('Church name', 200, 'Church name is required'),
  purpose: requiredTextSchema('Purpose', 100, 'Purpose is required'),
  topic: requiredTextSchema('Topic', 300, 'Topic is required'),
  targetAudience: requiredTextSchema('Target audience', 100, 'Target audience is required'),
  additionalInfo: textSchema('Additional information', 2000).optional(),
});
export type AiGeneratorInput = z.input<typeof aiGeneratorInputSchema>;

export const aiSectionSchema = z
  .string()
  .regex(/^(headline|subheading|mainContent|callToAction|keyPoint-([0-9]|1[01]))$/, 'Section is not valid');
export const aiSectionInputSchema = z.object({
  churchName: requiredTextSchema('Church name', 200, 'Church name is required'),
  section: aiSectionSchema,
  context: textSchema('Context', 4000).default(''),
});

/** What the model must answer for a whole page (structured output). */
export const aiPageAnswerSchema = z.object({
  headline: z.string().min(1).max(200),
  subheading: z.string().min(1).max(500),
  mainContent: z.string().min(1).max(20_000),
  callToAction: z.string().min(1).max(100),
  keyPoints: z.array(z.string().min(1).max(300)).min(3).max(6),
});
export const aiSectionAnswerSchema = z.object({ content: z.string().min(1).max(20_000) });
export const aiStatusSchema = z.object({ enabled: z.boolean(), remaining: z.number().int() });

// ---------------------------------------------------------------------------------------------
// A visitor's sign-up (the public form)
// ---------------------------------------------------------------------------------------------

const optionalLine = (label: string, max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), textSchema(label, max).optional());

export const signupFormSchema = z.object({
  name: requiredTextSchema('Name', 200),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .pipe(z.email('Please enter a valid email address').max(320, 'Please enter a valid email address')),
  phone: optionalLine('Phone', 40),
  city: optionalLine('City', 100),
  postalCode: optionalLine('Postal code', 20),
  /** Honeypot: hidden from people; a bot that fills it is thanked and ignored. */
  website: z.string().max(2000).optional(),
});
