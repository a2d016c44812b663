import { z } from 'zod';
import { idSchema, isoTimestamp, optionalTextSchema, urlSchema } from './common.js';
import { checkEventTypes, EVENT_TYPES, type EventType } from './events.js';

/**
 * Outgoing webhooks: a church's endpoints and their deliveries, signed as the
 * Standard Webhooks specification says. Settings → Integrations and integrators share these.
 */

/** Endpoints a church may have. */
export const MAX_WEBHOOK_ENDPOINTS = 20;
export const TOO_MANY_ENDPOINTS = `A church can have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`;
export const WEBHOOK_URL_MESSAGE = 'Please enter a valid webhook URL';
export const WEBHOOK_HTTPS_MESSAGE = 'The webhook URL must start with https://';
export const WEBHOOK_PRIVATE_MESSAGE = 'The webhook URL must be a public address, not one inside a private network';
/** The type of the event the Send test event button sends (not an event of the log). */
export const TEST_EVENT_TYPE = 'webhook.test';

/** A list of event types, each one known; null (or omitted on create) for every type. */
export const webhookEventTypesSchema = z
  .array(z.string().max(100))
  .min(1, 'Choose at least one event type, or all of them')
  .max(EVENT_TYPES.length, 'Too many event types')
  .superRefine((types, ctx) => {
    checkEventTypes(types, ctx);
  })
  .transform((types) => [...new Set(types)] as EventType[])
  .nullable()
  .describe('Event types to receive; null for all');

export const createWebhookSchema = z.object({
  url: urlSchema(WEBHOOK_URL_MESSAGE),
  eventTypes: webhookEventTypesSchema.default(null),
  description: optionalTextSchema('Description', 500).default(null),
});

/** PATCH: only the fields sent change; `enabled: true` turns a disabled endpoint back on. */
export const updateWebhookSchema = z.object({
  id: idSchema('Webhook ID'),
  url: urlSchema(WEBHOOK_URL_MESSAGE).optional(),
  eventTypes: webhookEventTypesSchema.optional(),
  description: optionalTextSchema('Description', 500).optional(),
  enabled: z.boolean().optional(),
});

export const webhookIdSchema = z.object({ id: idSchema('Webhook ID') });

export const webhookSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  /** null: every event type. */
  eventTypes: z.array(z.string()).nullable(),
  enabled: z.boolean(),
  /** Why it is off: turned off by staff, the receiver answered 410 Gone, or 3 days of failures. */
  disabledReason: z.enum(['staff', 'gone', 'failing']).nullable(),
  disabledAt: isoTimestamp.nullable(),
  /** The secret's first characters, to tell it apart; the secret is shown once. */
  secretHint: z.string(),
  /** Until then deliveries are also signed with the secret before the last rotation. */
  previousSecretUntil: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
});
export type WebhookOut = z.input<typeof webhookSchema>;

/** The signing secret (`whsec_…`), shown once: on create and on rotate. */
export const createdWebhookSchema = webhookSchema.extend({ secret: z.string() });
export const rotatedSecretSchema = z.object({ secret: z.string(), previousSecretUntil: isoTimestamp });

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  /** The event delivered; null for a test event. */
  eventId: z.number().int().nullable(),
  type: z.string(),
  /** The `webhook-id` header, the same on every try. */
  messageId: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  /** Tries so far. */
  attempts: z.number().int(),
  /** The last answer's HTTP status; null when none came (unreachable, timeout). */
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** The first 1 KB of the last answer (or why there was none). */
  response: z.string().nullable(),
  lastAttemptAt: isoTimestamp.nullable(),
  /** When the next try is due (pending deliveries). */
  nextAttemptAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  deliveredAt: isoTimestamp.nullable(),
});
export type WebhookDeliveryOut = z.input<typeof webhookDeliverySchema>;

export const listDeliveriesInput = z.object({
  id: idSchema('Webhook ID'),
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce
    .number({ error: 'Limit must be a number' })
    .int('Limit must be a number')
    .min(1, 'Limit must be at least 1')
    .max(100, 'Limit must be at most 100')
    .default(25),
});
export const listDeliveriesOutput = z.object({
  deliveries: z.array(webhookDeliverySchema),
  /** Pass as `before` for the next (older) page; null at the end. */
  next: z.number().int().nullable(),
});

export const redeliverInput = z.object({
  id: idSchema('Webhook ID'),
  deliveryId: idSchema('Delivery ID'),
});
