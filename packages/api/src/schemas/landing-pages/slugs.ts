import { requiredTextSchema } from '../common.js';

// ---------------------------------------------------------------------------------------------
// Slugs and the page form
// ---------------------------------------------------------------------------------------------

export const SLUG_MESSAGE = 'Slug can only contain lowercase letters, numbers, and hyphens';

export const slugSchema = requiredTextSchema('Slug', 100, 'Slug is required').regex(/^[a-z0-9-]+$/, SLUG_MESSAGE);
