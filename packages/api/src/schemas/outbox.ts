import { z } from 'zod';
import { idSchema, isoTimestamp } from './common.js';

// The local outbox: messages the email and SMS adapters saved instead of sending.

export const outboxQuerySchema = z.object({
  channel: z.enum(['email', 'sms']).default('email'),
  campaignId: idSchema('Campaign ID').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const outboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  campaignId: z.number().int().nullable(),
  toAddress: z.string(),
  fromAddress: z.string(),
  subject: z.string().nullable(),
  html: z.string().nullable(),
  text: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  createdAt: isoTimestamp,
});
