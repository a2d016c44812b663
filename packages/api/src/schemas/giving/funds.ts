import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema } from '../common.js';

// ---- Funds

export const FUND_STATUSES = ['active', 'archived'] as const;

export const fundSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  isPublic: z.boolean(),
  status: z.enum(FUND_STATUSES),
  /** Completed gifts' lines to this fund (whole cents). */
  giftCount: z.number().int(),
  createdAt: isoTimestamp,
});
export type Fund = z.output<typeof fundSchema>;

export const listFundsSchema = z
  .object({
    status: z.enum([...FUND_STATUSES, 'all'], { error: 'Status must be active, archived or all' }).default('all'),
  })
  .default({ status: 'all' });

const fundFields = {
  name: requiredTextSchema('Name', 80),
  description: optionalTextSchema('Description', 500),
  isPublic: z.boolean({ error: 'Public must be true or false' }),
};

export const createFundSchema = z.object({
  name: fundFields.name,
  description: fundFields.description.optional(),
  isPublic: fundFields.isPublic.default(true),
});
export type CreateFundInput = z.input<typeof createFundSchema>;

export const updateFundSchema = z.object({
  id: idSchema('Fund'),
  name: fundFields.name.optional(),
  description: fundFields.description.optional(),
  isPublic: fundFields.isPublic.optional(),
  status: z.enum(FUND_STATUSES, { error: 'Status must be active or archived' }).optional(),
});
export type UpdateFundInput = z.input<typeof updateFundSchema>;

export const fundIdSchema = z.object({ id: idSchema('Fund') });

/** DELETE answers whether the fund went away or, having gifts, was archived instead. */
export const deleteFundResultSchema = z.object({ id: z.number().int(), outcome: z.enum(['deleted', 'archived']) });
