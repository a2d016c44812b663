import { z } from 'zod';
import { idSchema } from './contacts.js';
import { isoTimestamp } from './common.js';
import { isCleanText, notAllowedMessage } from '../shared/text.js';

export const TEMPLATE_CATEGORIES = [
  'christmas',
  'easter',
  'general',
  'welcome',
  'events',
  'sermons',
  'giving',
] as const;
export const TEMPLATE_TYPES = [
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'SMS' },
  { value: 'print', label: 'Print' },
  { value: 'landing-page', label: 'Landing Page' },
] as const;
export type TemplateTypeValue = (typeof TEMPLATE_TYPES)[number]['value'];

const text = (max: number) =>
  z.string().max(max).refine(isCleanText, notAllowedMessage('Content')).optional().default('');

const keyPointsSchema = z
  .array(z.string().max(500).refine(isCleanText, notAllowedMessage('Key point')))
  .max(20)
  .optional()
  .default([]);

/**
 * Real, editable content per type (kept on edit; the spec's placeholder overwrite was a bug):
 * email (subject, HTML body), sms (text), landing page (headline, subheading, main content, call
 * to action, key points), print (an HTML flyer).
 */
const templateContentFields = z.object({
  subject: text(300),
  html: text(500_000),
  text: text(1600),
  headline: text(300),
  subheading: text(500),
  mainContent: text(20_000),
  callToAction: text(200),
  keyPoints: keyPointsSchema,
});

export const templateContentSchema = templateContentFields.partial().default({});
export type TemplateContent = z.infer<typeof templateContentSchema>;

const optionalUrl = z
  .string()
  .trim()
  .max(2000)
  .nullish()
  .transform((v) => (v ? v : null))
  .refine((v) => v === null || (/^https?:\/\/\S+$/i.test(v) && isCleanText(v)), {
    message: 'Please enter a valid URL',
  });

// The name and description of a template and of a package.
const nameField = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(200)
  .refine(isCleanText, notAllowedMessage('Name'));
const descriptionField = z
  .string()
  .trim()
  .max(2000)
  .refine(isCleanText, notAllowedMessage('Description'))
  .nullish()
  .transform((v) => (v ? v : null));

export const templateFieldsSchema = z.object({
  name: nameField,
  type: z.enum(['email', 'sms', 'print', 'landing-page'], { error: 'Type is required' }),
  category: z.enum(TEMPLATE_CATEGORIES, { error: 'Category is required' }),
  description: descriptionField,
  thumbnail: optionalUrl,
  content: templateContentSchema,
  isActive: z.boolean().default(true),
});
/** The template dialog: key points are typed one per line. */
export const templateFormSchema = templateFieldsSchema.extend({
  content: templateContentFields
    .extend({
      keyPoints: z.preprocess(
        (v) =>
          typeof v === 'string'
            ? v
                .split('\n')
                .map((k) => k.trim())
                .filter(Boolean)
            : v,
        keyPointsSchema,
      ),
    })
    .partial()
    .default({}),
});
export const updateTemplateSchema = templateFieldsSchema.extend({ id: idSchema('Template ID') });
export const templateIdSchema = z.object({ id: idSchema('Template ID') });

export const templateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  type: z.enum(['email', 'sms', 'print', 'landing-page']),
  thumbnail: z.string().nullable(),
  content: z.record(z.string(), z.unknown()),
  isActive: z.boolean(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

const linkId = z
  .preprocess((v) => (v === '' || v === undefined ? null : v), idSchema('Template ID').nullable())
  .optional();

export const packageFieldsSchema = z.object({
  name: nameField,
  category: z.enum(TEMPLATE_CATEGORIES, { error: 'Category is required' }),
  description: descriptionField,
  thumbnail: optionalUrl,
  emailTemplateId: linkId,
  smsTemplateId: linkId,
  printTemplateId: linkId,
  landingPageTemplateId: linkId,
  isActive: z.boolean().default(true),
});
/** The package dialog: each link is a Select of template ids as text, 'none' for no template. */
const linkChoice = z.preprocess((v) => (v === 'none' ? null : v), linkId);
export const packageFormSchema = packageFieldsSchema.extend({
  emailTemplateId: linkChoice,
  smsTemplateId: linkChoice,
  printTemplateId: linkChoice,
  landingPageTemplateId: linkChoice,
});
export const updatePackageSchema = packageFieldsSchema.extend({ id: idSchema('Package ID') });
export const packageIdSchema = z.object({ id: idSchema('Package ID') });

export const packageSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  category: z.string(),
  thumbnail: z.string().nullable(),
  emailTemplateId: z.number().int().nullable(),
  smsTemplateId: z.number().int().nullable(),
  printTemplateId: z.number().int().nullable(),
  landingPageTemplateId: z.number().int().nullable(),
  isActive: z.boolean(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

export const assignmentQuerySchema = z.object({ userId: idSchema('User ID') });
export const createAssignmentSchema = z
  .object({
    userId: idSchema('User ID'),
    templateId: idSchema('Template ID').optional(),
    packageId: idSchema('Package ID').optional(),
  })
  .refine((v) => (v.templateId === undefined) !== (v.packageId === undefined), {
    message: 'Give either templateId or packageId',
    path: ['templateId'],
  });
export const assignmentIdSchema = z.object({ id: idSchema('Assignment ID') });
/** A church a template or package is assigned to, with the assignment's id (to unassign it). */
export const assignedChurchSchema = z.object({ assignmentId: z.number().int(), userId: z.number().int() });
export type AssignedChurch = z.infer<typeof assignedChurchSchema>;
export const assignmentSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  templateId: z.number().int().nullable(),
  packageId: z.number().int().nullable(),
  assignedAt: isoTimestamp,
});

export const churchPackageSchema = packageSchema.extend({ templates: z.array(templateSchema) });
export const useTemplateResultSchema = z.object({
  kind: z.enum(['email-campaign', 'sms-campaign', 'print', 'landing-page']),
  id: z.number().int(),
  /** Where the web app goes next. */
  path: z.string(),
});
