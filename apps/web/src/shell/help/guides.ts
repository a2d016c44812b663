import type { Guide } from './guide';
import { homeGivingSettingsGuides } from './home-giving-settings';
import { outreachGuides } from './outreach';
import { peopleGuides } from './people';
import { worshipGuides } from './worship';

export const guides: Guide[] = [...homeGivingSettingsGuides, ...outreachGuides, ...peopleGuides, ...worshipGuides];

/** How well `path` fits the screen: its length when it does (longer is closer), else -1. */
function fit(path: string, at: { pathname: string; search: string }): number {
  const [base = '', query] = path.split('?');
  if (query) {
    const [key = '', value] = query.split('=');
    const tab = new URLSearchParams(at.search).get(key) ?? 'plans';
    return at.pathname === base && tab === value ? path.length : -1;
  }
  if (base === '/') return at.pathname === '/' ? 1 : -1;
  return at.pathname === base || at.pathname.startsWith(`${base}/`) ? base.length : -1;
}

/** The guide to the screen at `at`, or null for a screen without one. */
export function guideFor(at: { pathname: string; search: string }): Guide | null {
  let best: { guide: Guide; score: number } | null = null;
  for (const guide of guides) {
    for (const path of guide.paths) {
      const score = fit(path, at);
      if (score >= 0 && (!best || score > best.score)) best = { guide, score };
    }
  }
  return best?.guide ?? null;
}
