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
export const PROPOSAL_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'city',
  'state',
  'postalCode',
  'country',
  'dateOfBirth',
] as const;
/** The parts of the address, each kept in the contact's details under the same name. */
export const ADDRESS_FIELDS = ['address', 'city', 'state', 'postalCode', 'country'] as const;
export type ProposalField = (typeof PROPOSAL_FIELDS)[number];

export const PROPOSAL_FIELD_LABELS: Record<ProposalField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  address: 'Street address',
  city: 'City or town',
  state: 'State or region',
  postalCode: 'Postcode',
  country: 'Country',
  dateOfBirth: 'Birthday',
};

/** One part of the address as typed: empty is none. */
const addressPart = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(isCleanText, notAllowedMessage('Text'))
    .transform((v) => v || null);

/** My details: every field as typed; only those that differ from the contact become a proposal. */
export const portalDetailsSchema = z.object({
  firstName: contactFieldsSchema.shape.firstName,
  lastName: contactFieldsSchema.shape.lastName,
  email: contactFieldsSchema.shape.email,
  phone: contactFieldsSchema.shape.phone,
  address: addressPart(500),
  city: addressPart(200),
  state: addressPart(200),
  postalCode: addressPart(20),
  country: addressPart(200),
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
