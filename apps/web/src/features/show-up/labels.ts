import { PROJECT_CATEGORIES } from '@lampstand/api/schemas/show-up-values';

export const CATEGORY_LABEL: Record<string, string> = Object.fromEntries(
  PROJECT_CATEGORIES.map((c) => [c.value, c.label]),
);
export const categoryLabel = (value: string) => CATEGORY_LABEL[value] ?? value;

export const CATEGORY_COLOR: Record<string, string> = {
  community: 'indigo',
  education: 'blue',
  construction: 'orange',
  mission: 'teal',
  outreach: 'grape',
  worship: 'violet',
  youth: 'pink',
  other: 'gray',
};

/** The spec's 5 minutes for Show Up queries; changes invalidate them at once. */
export const SHOW_UP_STALE_MS = 5 * 60 * 1000;
