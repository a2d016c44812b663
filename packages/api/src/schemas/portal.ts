import { z } from 'zod';
import { contactFieldsSchema, isoDateSchema } from './contacts.js';
import { idSchema } from './common.js';
import { isCleanText, notAllowedMessage } from '../shared/text.js';

/**
 * The members' portal and the staff's 'Profile updates' queue. A member's proposed
 * details use the staff contact form's own field schemas, so the messages are the spec's.
 */

/** 'Enter your email or mobile number'. */
export const portalSignInSchema = z.object({
  address: z
    .string({ error: 'Please enter your email or mobile number' })
    .trim()
    .min(3, 'Please enter your email or mobile number')
    .max(320, 'Please enter your email or mobile number')
    .refine(isCleanText, 'Please enter your email or mobile number'),
});

export const portalCodeSchema = portalSignInSchema.extend({
  code: z
    .string({ error: 'Please enter the 6-digit code' })
    .trim()
    .regex(/^\d{6}$/, 'Please enter the 6-digit code'),
});

/** The fields a member may propose, each as the staff form checks it. */
export const PROPOSAL_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'address', 'dateOfBirth'] as const;
export type ProposalField = (typeof PROPOSAL_FIELDS)[number];

export const PROPOSAL_FIELD_LABELS: Record<ProposalField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  dateOfBirth: 'Birthday',
};

/** My details: every field as typed; only those that differ from the contact become a proposal. */
export const portalDetailsSchema = z.object({
  firstName: contactFieldsSchema.shape.firstName,
  lastName: contactFieldsSchema.shape.lastName,
  email: contactFieldsSchema.shape.email,
  phone: contactFieldsSchema.shape.phone,
  address: z
    .string()
    .trim()
    .max(500, 'Must be at most 500 characters')
    .refine(isCleanText, notAllowedMessage('Text'))
    .transform((v) => v || null),
  dateOfBirth: isoDateSchema,
});
export type PortalDetails = z.output<typeof portalDetailsSchema>;

const change = z.object({ from: z.string().nullable(), to: z.string().nullable() });

export const profileUpdateSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int(),
  contactName: z.string(),
  changes: z.record(z.string(), change).describe('Each proposed field: its current value (from) and the new one (to)'),
  createdAt: z.string().describe('ISO 8601'),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const profileUpdateIdsSchema = z.object({
  ids: z.array(idSchema('Update ID')).min(1, 'Choose at least one update').max(500),
});
export const profileUpdateDecisionSchema = z.object({ decided: z.number().int() });
export const profileUpdateCountSchema = z.object({ pending: z.number().int() });
