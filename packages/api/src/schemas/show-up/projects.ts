import { z } from 'zod';
import { boundedArraySchema, idSchema, isoTimestamp, textSchema } from '../common.js';
import {
  CATEGORY_VALUES,
  cleanTextSchema,
  coordinateSchema,
  dateSchema,
  emailSchema,
  imageInputSchema,
  moneySchema,
  tagsSchema,
  websiteSchema,
} from './fields.js';
import { emptyToNull } from '../../shared/form-input.js';

/** Every field of the project form (the same form creates and edits). */
export const projectFieldsSchema = z.object({
  title: cleanTextSchema('Title', 5, 200, 'Title must be at least 5 characters'),
  shortDescription: cleanTextSchema(
    'Short description',
    10,
    200,
    'Short description must be at least 10 characters',
    'Short description must be less than 200 characters',
  ),
  description: cleanTextSchema('Description', 50, 20_000, 'Description must be at least 50 characters'),
  location: cleanTextSchema('Location', 3, 300, 'Location is required'),
  latitude: coordinateSchema('Latitude', 90),
  longitude: coordinateSchema('Longitude', 180),
  targetAmount: moneySchema('Target amount must be positive', 'Target amount must be positive'),
  category: z
    .string({ error: 'Category is required' })
    .min(1, 'Category is required')
    .refine((v) => CATEGORY_VALUES.includes(v), 'Please choose a category'),
  tags: tagsSchema,
  organizationName: cleanTextSchema('Organization name', 3, 200, 'Organization name is required'),
  contactEmail: emailSchema,
  contactPhone: z.preprocess(emptyToNull, textSchema('Contact phone', 40).nullable()),
  website: websiteSchema,
  startDate: dateSchema,
  endDate: z.preprocess(emptyToNull, dateSchema.nullable()),
  coverImage: z.preprocess(emptyToNull, imageInputSchema.nullable()),
  images: boundedArraySchema(imageInputSchema, 'Images', 20),
});
// No defaults above: zod 4 applies a default inside .partial(), which would blank unsent PATCH fields.

const endAfterStart = (v: { startDate?: string; endDate?: string | null }, ctx: z.RefinementCtx) => {
  if (v.startDate && v.endDate && v.endDate <= v.startDate) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'End date must be after the start date' });
  }
};

/** Create: category defaults to community, the start date to today, images to none. */
export const createProjectSchema = projectFieldsSchema
  .extend({
    category: projectFieldsSchema.shape.category.default('community'),
    startDate: dateSchema.optional(),
    images: projectFieldsSchema.shape.images.default([]),
  })
  .superRefine(endAfterStart);
export type ProjectFormValues = z.input<typeof createProjectSchema>;

/** PATCH: only the fields sent change (the end date is checked against the merged record). */
export const updateProjectSchema = projectFieldsSchema
  .partial()
  .extend({ id: idSchema('Project ID') })
  .superRefine(endAfterStart);
export type UpdateProjectInput = z.output<typeof updateProjectSchema>;

export const projectIdSchema = z.object({ id: idSchema('Project ID') });

/** ?category=urgent: active projects whose end date is within the next 30 days. */
export const URGENT_DAYS = 30;

export const findProjectsSchema = z.object({
  search: z.preprocess(emptyToNull, textSchema('Search', 200).nullable()).default(null),
  category: z
    .preprocess(
      emptyToNull,
      z
        .string()
        .refine((v) => v === 'urgent' || CATEGORY_VALUES.includes(v), 'Please choose a category')
        .nullable(),
    )
    .default(null),
  /** Nearest first from here (the browser's location), e.g. for the map. */
  lat: coordinateSchema('Latitude', 90).default(null),
  lng: coordinateSchema('Longitude', 180).default(null),
  ownedByMe: z.preprocess((v) => v === true || v === 'true' || v === '1', z.boolean()).default(false),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(24),
});

const imageSchema = z.object({ id: z.number().int().nullable(), url: z.string(), thumbnailUrl: z.string().nullable() });

export const projectCardSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  title: z.string(),
  shortDescription: z.string(),
  location: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  targetAmount: z.number(),
  raisedAmount: z.number(),
  donationsCount: z.number().int(),
  status: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  coverImage: z.string().nullable(),
  coverThumbnailUrl: z.string().nullable(),
  organizationName: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  /** Kilometres from the given lat/lng, when both were given and the project has coordinates. */
  distanceKm: z.number().nullable(),
});
export type ProjectCard = z.infer<typeof projectCardSchema>;

export const projectPageSchema = z.object({
  items: z.array(projectCardSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});

export const projectSchema = projectCardSchema.omit({ distanceKm: true }).extend({
  description: z.string(),
  coverUploadId: z.number().int().nullable(),
  images: z.array(imageSchema),
  contactEmail: z.string(),
  contactPhone: z.string().nullable(),
  website: z.string().nullable(),
  updatesCount: z.number().int(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  /** True for the signed-in owner (Edit Project, Post Update, Donations). */
  isOwner: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;

export const createUpdateSchema = z.object({
  projectId: idSchema('Project ID'),
  title: cleanTextSchema('Title', 5, 200, 'Title must be at least 5 characters'),
  content: cleanTextSchema('Content', 20, 20_000, 'Content must be at least 20 characters'),
  images: boundedArraySchema(imageInputSchema, 'Images', 20).default([]),
});

export const projectUpdateSchema = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  title: z.string(),
  content: z.string(),
  images: z.array(imageSchema),
  createdAt: isoTimestamp,
});
