import { z } from 'zod';
import { idSchema, isoTimestamp, requiredTextSchema } from '../common.js';
import {
  SIGNUP_FIELDS,
  ctaBlockSchema,
  eventBlockSchema,
  groupsBlockSchema,
  heroBlockSchema,
  highlightsBlockSchema,
  imageBlockSchema,
  imageRefSchema,
  showUpBlockSchema,
  signupBlockSchema,
  registerBlockSchema,
  textBlockSchema,
} from './blocks.js';
import { landingPageContentSchema } from './content.js';
import { slugSchema } from './slugs.js';

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
 * id and a calendar event's stay: their public routes are addressed by them.
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
  groupsBlockSchema,
  registerBlockSchema,
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
