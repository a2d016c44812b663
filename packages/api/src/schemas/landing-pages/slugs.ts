import { requiredTextSchema } from '../common.js';

// ---------------------------------------------------------------------------------------------
// Slugs and the page form
// ---------------------------------------------------------------------------------------------

export const SLUG_MESSAGE = 'Slug can only contain lowercase letters, numbers, and hyphens';

export const slugSchema = requiredTextSchema('Slug', 100, 'Slug is required').regex(/^[a-z0-9-]+$/, SLUG_MESSAGE);

/** 'Easter Sunday 2026!' -> 'easter-sunday-2026' (the suggestion; the user may change it). */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}
