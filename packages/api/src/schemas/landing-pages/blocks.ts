import { z } from 'zod';
import { boundedArraySchema, idSchema, textSchema, urlSchema } from '../common.js';
import { isCleanText } from '../../shared/text.js';

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

export const lineSchema = (label: string, max: number) => textSchema(label, max).default('');

export const heroBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('hero'),
  headline: lineSchema('Headline', 200),
  subheading: lineSchema('Subheading', 500),
  backgroundImage: imageRefSchema.nullable().default(null),
});
export const textBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('text'),
  /** Rich text as HTML (sanitised on the server: paragraphs, headings, lists, bold, italic, links). */
  html: lineSchema('Main content', 20_000),
});
export const highlightsBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('highlights'),
  title: lineSchema('Title', 200),
  items: boundedArraySchema(textSchema('Key point', 300), 'Key points', 12).default([]),
});
export const imageBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('image'),
  image: imageRefSchema.nullable().default(null),
  alt: lineSchema('Image description', 300),
  caption: lineSchema('Caption', 300),
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
  text: lineSchema('Button text', 100),
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
  title: lineSchema('Event title', 200),
  date: dateSchema,
  startTime: timeSchema,
  endTime: timeSchema,
  place: lineSchema('Place', 200),
  address: lineSchema('Address', 300),
  mapUrl: z.union([z.literal(''), urlSchema()]).default(''),
});
export const showUpBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('showup'),
  projectId: idSchema('Project ID').nullable().default(null),
});
/** The church's groups taking new members, with a link to its group finder. */
export const groupsBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('groups'),
  title: lineSchema('Title', 200),
  /** Only groups of this type ('Small group'); empty: every type. */
  groupType: lineSchema('Group type', 60),
});
export const SIGNUP_FIELDS = ['phone', 'city', 'postalCode'] as const;
export const signupBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('signup'),
  title: lineSchema('Form title', 200),
  description: lineSchema('Form description', 500),
  buttonText: lineSchema('Button text', 60),
  /** The contact list sign-ups join (a list of the church). */
  listId: idSchema('List ID').nullable().default(null),
  /** Asked besides name and email (always optional for the visitor). */
  fields: z.array(z.enum(SIGNUP_FIELDS)).max(SIGNUP_FIELDS.length).default([]),
});
/** A card of one of the church's calendar events: its date and a Register button to its page. */
export const registerBlockSchema = z.object({
  id: blockIdSchema,
  type: z.literal('register'),
  eventId: idSchema('Event').nullable().default(null),
  buttonText: lineSchema('Button text', 60),
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
  groupsBlockSchema,
  registerBlockSchema,
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
  { type: 'groups', label: 'Groups' },
  { type: 'register', label: 'Event registration' },
];
