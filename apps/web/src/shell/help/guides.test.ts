import { describe, expect, it } from 'vitest';
import { everyNavItem } from '../nav';
import { searchResultPath } from '../search-results';
import { guideFor } from './guides';

const at = (to: string) => {
  const url = new URL(to, 'http://x');
  return { pathname: url.pathname, search: url.search };
};

describe('help guides', () => {
  it('every area of the sidebar has its own guide, with what it is for and a few common tasks', () => {
    const titles = new Set<string>();
    for (const item of everyNavItem(true)) {
      const guide = guideFor(at(item.to));
      expect(guide, item.label).not.toBeNull();
      expect(guide!.about.length, item.label).toBeGreaterThan(0);
      expect(guide!.tasks.length, item.label).toBeGreaterThan(0);
      expect(guide!.tasks.length, item.label).toBeLessThanOrEqual(4);
      titles.add(guide!.title);
    }
    // No two areas share a guide ('Templates' twice: the church's and the administrators').
    expect(titles.size).toBe(everyNavItem(true).length);
  });

  it('the closest address wins: a plan, a planner tab, a screen under an area', () => {
    expect(guideFor(at('/service-planner/plans/12'))?.title).toBe('A service plan');
    expect(guideFor(at('/service-planner?tab=songs'))?.title).toBe('Song Library');
    expect(guideFor(at('/service-planner'))?.title).toBe('Service Plans');
    expect(guideFor(at('/conversations/keywords'))?.title).toBe('Conversations');
    expect(guideFor(at('/giving/batches/3'))?.title).toBe('Giving');
    expect(guideFor(at('/'))?.title).toBe('Dashboard');
    expect(guideFor(at('/nowhere'))).toBeNull();
  });
});

describe('search results', () => {
  it('open their own page; an SMS campaign that may still change opens its form', () => {
    const r = (kind: Parameters<typeof searchResultPath>[0]['kind'], status: string | null = null) =>
      searchResultPath({ kind, id: 7, name: 'Amazing Grace', status });
    expect(r('person')).toBe('/contacts/detail/7');
    expect(r('plan')).toBe('/service-planner/plans/7');
    expect(r('emailCampaign')).toBe('/email-campaigns/7');
    expect(r('smsCampaign', 'draft')).toBe('/sms-campaigns?edit=7');
    expect(r('smsCampaign', 'sent')).toBe('/sms-campaigns');
    expect(r('landingPage')).toBe('/landing-pages/7');
    expect(r('song')).toBe('/service-planner?tab=songs&q=Amazing+Grace');
  });
});
