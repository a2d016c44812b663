import { afterAll, beforeAll, describe, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { browserDescribe, signIn, startE2E } from './helpers';
import { tally } from './every-screen/checks';
import { checkPublicPages, MORE_SCREENS } from './every-screen/more-screens';
import { checkScreenAtWidth, SCREENS, WIDTHS } from './every-screen/screens';
import { seedEveryScreen } from './every-screen/seed';
import { AT_SCREEN } from './every-screen/visits';

/** Long flows on a shared, busy machine: a generous limit, never a timing assertion. */
const LONG = 180_000;

/**
 * One pass over every screen at 390, 1024 and 1366 px. Each screen is opened once per width and,
 * at that visit, checked for its widths (screens.ts), then its menus, dialogs and notices with axe
 * (visits.ts, more-screens.ts): what widths, a11y-menus and a11y-dialogs checked with three apps
 * and about 125 page loads, now with one app and about 80. It has an app of its own: the
 * administrator's screens list every church.
 */
browserDescribe(describe)('every screen at 390, 1024 and 1366 px: widths, menus, dialogs, axe', async () => {
  const e2e = await startE2E({}, { ownApp: true });
  const seed = await seedEveryScreen(e2e);
  afterAll(() => {
    console.log(`every-screen checks: ${JSON.stringify(tally)}`);
  });

  for (const width of WIDTHS) {
    describe(`at ${width} px`, () => {
      const open: { contexts: BrowserContext[]; page?: Page; adminPage?: Page } = { contexts: [] };
      async function pageAt() {
        const context = await e2e.browser.newContext({ baseURL: e2e.app.url, viewport: { width, height: 800 } });
        open.contexts.push(context);
        return context.newPage();
      }
      beforeAll(async () => {
        open.page = await pageAt();
        await signIn(open.page, e2e.app.url, seed.church.user.username, seed.church.password);
        await open.page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
        // A session of its own: impersonating a church (the users screen's visit) renews it.
        open.adminPage = await pageAt();
        await signIn(open.adminPage, e2e.app.url, seed.admin.user.username, seed.admin.password, { ownSession: true });
        await open.adminPage.getByRole('heading', { name: /^Welcome( back)?, Lampstand Platform!$/ }).waitFor();
      });
      afterAll(async () => {
        await Promise.all(open.contexts.map((c) => c.close()));
      });

      for (const s of SCREENS) {
        it(
          `${s.name}: its actions on screen, no sideways scrolling; its menus and dialogs`,
          async () => {
            const page = s.admin ? open.adminPage! : open.page!;
            await checkScreenAtWidth(page, s, width);
            await AT_SCREEN[s.name]?.({ page, width, seed });
          },
          LONG,
        );
      }
      for (const m of MORE_SCREENS.filter((x) => x.widths.includes(width))) {
        it(m.name, () => m.run({ page: open.page!, width, seed }), LONG);
      }
      if (width === 390) {
        it(
          'the public pages, signed out: landing page, donation page and dialog, unsubscribe, links not found',
          async () => checkPublicPages(await pageAt(), seed),
          LONG,
        );
      }
    });
  }
});
