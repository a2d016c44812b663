// The Show Up schemas, one file per part of the feature. Zod only: the Show Up forms in the
// browser validate with these same schemas.

export * from './show-up-values.js';
export { websiteSchema, imageInputSchema } from './show-up/fields.js';
export * from './show-up/projects.js';
export * from './show-up/donations.js';
