import type { SearchKind, SearchResult } from '@lampstand/api/schemas/search';

/** The dropdown's group headings, in the order the server sends the kinds. */
export const SEARCH_KIND_LABELS: Record<SearchKind, string> = {
  person: 'People',
  list: 'Lists',
  emailCampaign: 'Email campaigns',
  smsCampaign: 'SMS campaigns',
  landingPage: 'Landing pages',
  plan: 'Service plans',
  song: 'Songs',
};

/** An SMS campaign that may still change opens in its form; a sent one in the list, which shows its figures. */
const SMS_EDITABLE = new Set(['draft', 'ready', 'scheduled']);

/** The page a search result opens. */
export function searchResultPath(r: Pick<SearchResult, 'kind' | 'id' | 'name' | 'status'>): string {
  switch (r.kind) {
    case 'person':
      return `/contacts/detail/${r.id}`;
    case 'list':
      return '/contacts?tab=lists';
    case 'emailCampaign':
      return `/email-campaigns/${r.id}`;
    case 'smsCampaign':
      return SMS_EDITABLE.has(r.status ?? '') ? `/sms-campaigns?edit=${r.id}` : '/sms-campaigns';
    case 'landingPage':
      return `/landing-pages/${r.id}`;
    case 'plan':
      return `/service-planner/plans/${r.id}`;
    case 'song':
      return `/service-planner?${new URLSearchParams({ tab: 'songs', q: r.name })}`;
  }
}

/** A result's option value in the dropdown ('plan:12'). */
export const searchValue = (r: Pick<SearchResult, 'kind' | 'id'>) => `${r.kind}:${r.id}`;
