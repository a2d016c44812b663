import { z } from 'zod';
import { boundedArray, idSchema, isCleanText, textSchema, urlSchema } from '../common.js';

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

export const line = (label: string, max: number) => textSchema(label, max).default('');

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
