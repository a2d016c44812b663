import { z } from 'zod';
import { idSchema, isoTimestamp } from '../common.js';
import { isCleanText, notAllowedMessage } from '../../shared/text.js';
import { dmyDateSchema, isoDateSchema } from './dates.js';
import { contactTextSchema } from './contact.js';

// Children and child groups

const nullableInt = (label: string, min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? null : v),
    z.coerce
      .number({ error: `${label} must be a number` })
      .int(`${label} must be a whole number`)
      .min(min, `${label} must be at least ${min}`)
      .max(max, `${label} must be at most ${max}`)
      .nullable(),
  );

export const childFieldsSchema = z.object({
  name: z
    .string({ error: "Child's name is required" })
    .trim()
    .min(1, "Child's name is required")
    .max(200)
    .refine(isCleanText, notAllowedMessage("Child's name")),
  dateOfBirth: isoDateSchema.optional(),
  age: nullableInt('Age', 0, 30).optional(),
  groupId: z.preprocess((v) => (v === '' || v === undefined ? null : v), idSchema('Group').nullable()).optional(),
  notes: contactTextSchema(5000).optional(),
});
export const addChildSchema = childFieldsSchema.extend({ id: idSchema('Contact ID') });
/** The child form: the date of birth typed as DD/MM/YYYY. */
export const childFormSchema = childFieldsSchema.extend({ dateOfBirth: dmyDateSchema });
export type ChildFormValues = z.input<typeof childFormSchema>;
/** PATCH: only the fields sent change. */
export const updateChildSchema = childFieldsSchema.partial().extend({ childId: idSchema('Child ID') });
export const childIdSchema = z.object({ childId: idSchema('Child ID') });
export const childToListSchema = z.object({
  childId: idSchema('Child ID'),
  listId: z
    .preprocess((v) => (v === '' ? undefined : v), idSchema('List').optional())
    .refine((v) => v !== undefined, { message: 'Please select a contact list.' }),
});
export const childSchema = z.object({
  id: z.number().int(),
  parentContactId: z.number().int(),
  name: z.string(),
  dateOfBirth: z.string().nullable(),
  /** Worked out from the date of birth when there is one; otherwise the age as entered. */
  age: z.number().int().nullable(),
  groupId: z.number().int().nullable(),
  group: z
    .object({
      id: z.number().int(),
      name: z.string(),
      ageMin: z.number().int().nullable(),
      ageMax: z.number().int().nullable(),
    })
    .nullable(),
  notes: z.string().nullable(),
  listIds: z.array(z.number().int()),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
export type Child = z.infer<typeof childSchema>;

export const childGroupFieldsSchema = z
  .object({
    name: z
      .string({ error: 'Group name is required' })
      .trim()
      .min(1, 'Group name is required')
      .max(200)
      .refine(isCleanText, notAllowedMessage('Group name')),
    description: contactTextSchema(2000).optional(),
    ageMin: nullableInt('Minimum age', 0, 30).optional(),
    ageMax: nullableInt('Maximum age', 0, 30).optional(),
  })
  .refine((g) => g.ageMin == null || g.ageMax == null || g.ageMin <= g.ageMax, {
    message: 'Maximum age must not be less than minimum age',
    path: ['ageMax'],
  });
export const createChildGroupSchema = childGroupFieldsSchema;
export const updateChildGroupSchema = z.intersection(childGroupFieldsSchema, z.object({ id: idSchema('Group ID') }));
export const childGroupIdSchema = z.object({ id: idSchema('Group ID') });
export const childGroupSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  ageMin: z.number().int().nullable(),
  ageMax: z.number().int().nullable(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});
