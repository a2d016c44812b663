import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { addSession, browserDescribe, startE2E } from './helpers';
import { bundleReport, FIRST_LOAD_LIMIT_KB, STATION_LIMIT_KB } from '../scripts/bundle-report.mjs';

/** The session check (auth.me) requests a page makes, alone or inside a tRPC batch. */
function countSessionChecks(page: Page): () => number {
  let n = 0;
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname.startsWith('/trpc/'))
      n += url.pathname
        .slice(6)
        .split(',')
        .filter((p) => p === 'auth.me').length;
  });
  return () => n;
}

browserDescribe(describe)('first load', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('a visitor sent to the sign-in page checks the session once', async () => {
    const { page, context } = await e2e.newPage();
    const checks = countSessionChecks(page);
    await page.goto('/contacts');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(checks()).toBe(1);
    await context.close();
  });

  it('a signed-in church opening the dashboard checks the session once', async () => {
    const { page, context } = await e2e.newPage();
    await addSession(context, e2e.app.url, church.user.username, church.password);
    const checks = countSessionChecks(page);
    await page.goto('/');
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(checks()).toBe(1);
    // The spec lights the Show Up link on / as well as the Dashboard's.
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const active = async (name: string) => (await nav.getByRole('link', { name }).getAttribute('data-active')) !== null;
    expect({ dashboard: await active('Dashboard'), showUp: await active('Show Up') }).toEqual({
      dashboard: true,
      showUp: true,
    });
    await page.goto('/contacts');
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    expect(await active('Show Up')).toBe(false);
    await context.close();
  });
});

// The app these tests ran against (built by the e2e setup): the staff app's first load stays within
// its budget, so a screen that starts importing the schemas (and zod) or a dialog on the dashboard
// shows here rather than in the next Lighthouse run.
describe('first load budget', () => {
  it(`the staff app's first load (entry, shell, dashboard) is at most ${FIRST_LOAD_LIMIT_KB} KB of gzipped JavaScript`, () => {
    const r = bundleReport();
    expect(r.firstLoadKb).toBeGreaterThan(50);
    expect(r.firstLoadKb).toBeLessThanOrEqual(FIRST_LOAD_LIMIT_KB);
    // A donor opening a project does without the staff shell and the donation form until they give.
    expect(r.showUpProjectKb).toBeLessThan(r.firstLoadKb);
  });

  it(`a check-in station's first load (its own entry, station.html) is at most ${STATION_LIMIT_KB} KB of gzipped JavaScript`, () => {
    const r = bundleReport();
    expect(r.stationKb).toBeGreaterThan(30);
    expect(r.stationKb).toBeLessThanOrEqual(STATION_LIMIT_KB);
    // A room station loads its roster at once as well.
    expect(r.stationRoomKb).toBeGreaterThan(r.stationKb);
    expect(r.stationRoomKb).toBeLessThanOrEqual(STATION_LIMIT_KB);
    // None of the staff app: the station is a smaller page than the staff app's entry alone.
    expect(r.stationKb).toBeLessThan(r.entryKb);
  });
});
