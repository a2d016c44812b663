import { z } from 'zod';
import { boundedArraySchema, idSchema, optionalTextSchema, requiredTextSchema } from '../common.js';
import { ITEM_TYPE_COLORS, ITEM_TYPE_ICONS } from './options.js';
import { keySchema } from './fields.js';

// ---- Item types ----

export const itemTypeFieldsSchema = z.object({
  name: requiredTextSchema('Name', 60),
  color: z.enum(ITEM_TYPE_COLORS, { error: 'Colour must be one of the listed colours' }).default('gray'),
  icon: z.enum(ITEM_TYPE_ICONS, { error: 'Icon must be one of the listed icons' }).default('circle'),
  description: optionalTextSchema('Description', 500).optional(),
});
/** PATCH: no defaults here (zod applies a default inside .partial(), which would reset unsent colours). */
export const updateItemTypeSchema = z.object({
  id: idSchema('Item type ID'),
  name: itemTypeFieldsSchema.shape.name.optional(),
  color: itemTypeFieldsSchema.shape.color.unwrap().optional(),
  icon: itemTypeFieldsSchema.shape.icon.unwrap().optional(),
  description: itemTypeFieldsSchema.shape.description,
});
export const itemTypeIdSchema = z.object({ id: idSchema('Item type ID') });
export const itemTypeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  icon: z.string(),
  description: z.string().nullable(),
  isDefault: z.boolean(),
});
export type ItemType = z.infer<typeof itemTypeSchema>;

// ---- Items ----

const itemSongSchema = z
  .object({
    songId: idSchema('Song ID'),
    keySignature: keySchema.optional(),
    arrangement: optionalTextSchema('Arrangement', 300).optional(),
    notes: optionalTextSchema('Song notes', 2000).optional(),
  })
  .nullable();

const itemFields = {
  title: requiredTextSchema('Title', 200),
  serviceItemTypeId: idSchema('Item type ID').nullable().optional(),
  description: optionalTextSchema('Description', 2000).optional(),
  duration: z.coerce
    .number({ error: 'Duration must be between 0 and 600 minutes' })
    .int('Duration must be whole minutes')
    .min(0, 'Duration must be between 0 and 600 minutes')
    .max(600, 'Duration must be between 0 and 600 minutes')
    .default(0),
  notes: optionalTextSchema('Notes', 2000).optional(),
  isRehearsalNeeded: z.boolean({ error: 'Rehearsal needed must be true or false' }).default(false),
  song: itemSongSchema.optional(),
};

export const createItemSchema = z.object({ planId: idSchema('Plan ID'), ...itemFields });
export const updateItemSchema = z.object({
  id: idSchema('Item ID'),
  title: itemFields.title.optional(),
  serviceItemTypeId: itemFields.serviceItemTypeId,
  description: itemFields.description,
  duration: itemFields.duration.unwrap().optional(),
  notes: itemFields.notes,
  isRehearsalNeeded: z.boolean({ error: 'Rehearsal needed must be true or false' }).optional(),
  song: itemFields.song,
});
export const itemIdSchema = z.object({ id: idSchema('Item ID') });
export const reorderItemsSchema = z.object({
  planId: idSchema('Plan ID'),
  itemIds: boundedArraySchema(idSchema('Item ID'), 'Items', 500).refine(
    (ids) => new Set(ids).size === ids.length,
    'Each item must appear once',
  ),
});

export const planSongSchema = z.object({
  songId: z.number().int(),
  title: z.string(),
  artist: z.string().nullable(),
  /** The key chosen for this plan (null = the song's own key). */
  keySignature: z.string().nullable(),
  songKey: z.string().nullable(),
  arrangement: z.string().nullable(),
  notes: z.string().nullable(),
  chords: z.string().nullable(),
  lyrics: z.string().nullable(),
});

export const itemSchema = z.object({
  id: z.number().int(),
  planId: z.number().int(),
  serviceItemTypeId: z.number().int().nullable(),
  type: itemTypeSchema.nullable(),
  title: z.string(),
  description: z.string().nullable(),
  duration: z.number().int(),
  notes: z.string().nullable(),
  position: z.number().int(),
  /** Computed from the plan's start and the durations before it ('HH:MM'). */
  startTime: z.string().nullable(),
  isRehearsalNeeded: z.boolean(),
  song: planSongSchema.nullable(),
});
export type PlanItem = z.infer<typeof itemSchema>;
