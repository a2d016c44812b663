import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema, requiredTextSchema } from '../common.js';
import { GIFT_METHODS, GIFT_STATUSES } from './gifts.js';
import { MAX_LINE_CENTS } from './amounts.js';
import { dateSchema } from './dates.js';

// ---- Batches of cash and checks

export const BATCH_METHODS = ['cash', 'check', 'other'] as const;

const countedTotal = z
  .number({ error: 'Counted total must be a whole number of cents' })
  .int('Counted total must be a whole number of cents')
  .min(0, 'Counted total must be a whole number of cents')
  .max(2_000_000_000, 'Counted total is too large');

export const createBatchSchema = z.object({
  batchDate: dateSchema('Date'),
  description: optionalTextSchema('Description', 200).optional(),
  expectedTotalCents: countedTotal,
});

export const updateBatchSchema = z.object({
  id: idSchema('Batch'),
  batchDate: dateSchema('Date').optional(),
  description: optionalTextSchema('Description', 200).optional(),
  expectedTotalCents: countedTotal.optional(),
});

export const batchIdSchema = z.object({ id: idSchema('Batch') });

export const addBatchLineSchema = z
  .object({
    id: idSchema('Batch'),
    /** The donor; null or omitted: 'Anonymous cash'. */
    contactId: idSchema('Contact').nullish(),
    fundId: idSchema('Fund'),
    amountCents: z
      .number({ error: 'Amount must be a whole number of cents' })
      .int('Amount must be a whole number of cents')
      .min(1, 'Amount must be at least $0.01')
      .max(MAX_LINE_CENTS, 'Amount is too large'),
    method: z.enum(BATCH_METHODS, { error: 'Method must be cash, check or other' }),
    checkNumber: optionalTextSchema('Check number', 40).optional(),
    /** What the donor received for the gift, if anything (a dinner ticket): named on statements. */
    goodsServices: optionalTextSchema('Goods or services', 300).optional(),
    /** The value of what they received, whole cents (required with `goodsServices`; at most the gift). */
    goodsServicesCents: z
      .number({ error: 'Value of goods or services must be a whole number of cents' })
      .int('Value of goods or services must be a whole number of cents')
      .min(0, 'Value of goods or services must be a whole number of cents')
      .max(MAX_LINE_CENTS, 'Value of goods or services is too large')
      .nullish(),
    /** Required on a committed batch: a correction says why. */
    reason: optionalTextSchema('Reason', 500).optional(),
  })
  .superRefine((v, ctx) => {
    const described = !!v.goodsServices;
    const valued = v.goodsServicesCents !== undefined && v.goodsServicesCents !== null;
    if (described && !valued)
      ctx.addIssue({
        code: 'custom',
        path: ['goodsServicesCents'],
        message: 'Enter the value of the goods or services',
      });
    else if (valued && !described)
      ctx.addIssue({ code: 'custom', path: ['goodsServices'], message: 'Describe the goods or services' });
    else if (valued && v.goodsServicesCents! > v.amountCents)
      ctx.addIssue({
        code: 'custom',
        path: ['goodsServicesCents'],
        message: 'The goods or services cannot be worth more than the gift',
      });
  });

export const batchLineSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  donorName: z.string(),
  fundId: z.number().int(),
  fundName: z.string(),
  amountCents: z.number().int(),
  method: z.enum(GIFT_METHODS),
  checkNumber: z.string().nullable(),
  /** What the donor received for the gift and its value (whole cents), if anything. */
  goodsServices: z.string().nullable(),
  goodsServicesCents: z.number().int().nullable(),
  correctionReason: z.string().nullable(),
  /** Why a committed line was reversed (its gift is then refunded: off every total). */
  reversalReason: z.string().nullable(),
  status: z.enum(GIFT_STATUSES),
});

/** Reverse a committed batch's line (a bounced check, a line entered twice): the reason is required. */
export const reverseBatchLineSchema = z.object({
  id: idSchema('Batch'),
  lineId: idSchema('Line'),
  reason: requiredTextSchema('Reason', 500),
});

export const batchSchema = z.object({
  id: z.number().int(),
  batchDate: z.string(),
  description: z.string().nullable(),
  expectedTotalCents: z.number().int(),
  linesTotalCents: z.number().int(),
  lineCount: z.number().int(),
  status: z.enum(['open', 'committed']),
  committedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
});

export const batchDetailSchema = batchSchema.extend({ lines: z.array(batchLineSchema) });
