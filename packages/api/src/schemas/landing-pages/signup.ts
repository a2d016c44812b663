import { z } from 'zod';
import { requiredTextSchema, textSchema } from '../common.js';

// ---------------------------------------------------------------------------------------------
// A visitor's sign-up (the public form)
// ---------------------------------------------------------------------------------------------

const optionalLine = (label: string, max: number) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), textSchema(label, max).optional());

export const signupFormSchema = z.object({
  name: requiredTextSchema('Name', 200),
  email: z
    .string({ error: 'Please enter a valid email address' })
    .trim()
    .pipe(z.email('Please enter a valid email address').max(320, 'Please enter a valid email address')),
  phone: optionalLine('Phone', 40),
  city: optionalLine('City', 100),
  postalCode: optionalLine('Postal code', 20),
  /** Honeypot: hidden from people; a bot that fills it is thanked and ignored. */
  website: z.string().max(2000).optional(),
});
