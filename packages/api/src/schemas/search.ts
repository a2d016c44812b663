import { z } from 'zod';

/**
 * The header's search: what it finds, in the order the dropdown groups them. A new kind (events)
 * is a new entry here, a branch in the search service and a line in the web's result table.
 */
export const SEARCH_KINDS = ['person', 'list', 'emailCampaign', 'smsCampaign', 'landingPage', 'plan', 'song'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** At most this many results of each kind. */
export const SEARCH_PER_KIND = 5;

export const searchInputSchema = z.object({
  q: z.string().trim().max(100, 'Search is at most 100 characters'),
});

export const searchResultSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.number().int(),
  name: z.string(),
  /** A second line: a person's email or phone, a campaign's status, a song's artist, a page's address. */
  note: z.string().nullable(),
  /** A campaign's status (the web opens an unsent text message's form, a sent one's list). */
  status: z.string().nullable(),
  /** A plan's day ('2026-12-06'), formatted by the browser. */
  date: z.string().nullable(),
});
export type SearchResult = z.output<typeof searchResultSchema>;

export const searchOutputSchema = z.object({ results: z.array(searchResultSchema) });
