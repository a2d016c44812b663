import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, type describe, expect, inject, type TestAPI } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Frame, type Locator, type Page } from 'playwright-core';
import axe from 'axe-core';
import { createTestDatabase } from '@lampstand/db/testing';
import { HttpClient, registerChurch, startAppOn, startTestApp, type TestApp } from '@lampstand/server/testing';
import './worker-apps';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const screenshotsDir = path.join(webDir, 'e2e', 'screenshots');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const hasBrowser = fs.existsSync(CHROMIUM);

if (!hasBrowser) {
  const msg = `No Chromium at ${CHROMIUM}: browser tests skipped (apt-get install chromium, or set CHROMIUM_PATH).`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(msg);
  console.warn(msg);
}

/** `describe` that skips (with the message above) where no browser is installed. */
export function browserDescribe(d: TestAPI['describe'] | typeof describe) {
  return hasBrowser ? d : d.skip;
}

/**
 * Headless Chromium whose every context prefers reduced motion (unless a test asks otherwise), as
 * a person who turned animations off in their system would. The theme honours it
 * (`respectReducedMotion`), so dialogs and menus appear at once: a click aimed at a button of a
 * dialog still scaling in could land beside it (a CI run's 'Generate' click did, and the dialog
 * never validated). Playwright sets `prefers-reduced-motion` per context, overriding Chromium's
 * own switch, so the default goes on `newContext`.
 */
/**
 * How long a click, a fill or a `waitFor` may wait before it fails: Playwright's 30 s was passed on
 * a slow, shared CI machine by elements that did appear (2026-11-30: a run whose tests took 2.5×
 * the CPU-seconds of a quiet one). A real hang still fails, at the test's own timeout or here.
 */
const ACTION_TIMEOUT = 60_000;

/**
 * Chromium features the tests turn off. The first ones are Playwright's own (1.65's
 * `chromiumSwitches`, less its Windows and Edge ones): Chromium obeys only the last
 * `--disable-features` on its command line, and ours comes after Playwright's, so it carries them too. The last three are the address bar's
 * suggestion popup, which Chromium 156 builds as WebUI pages (`chrome://omnibox-popup.top-chrome`)
 * and loads, with about 800 module requests, in a renderer of its own for every window, so for every
 * browser context a test opens, though a headless window has no address bar anyone types in: 1.5–3
 * CPU-seconds a context, over a third of what Chromium spent on a signed-in context that loads
 * three screens (docs/ci-history.md, 'Where the browser tests' CPU goes').
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxFullPopup',
  'WebUIOmniboxAimPopup',
];

async function launchChromium(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const context = await newContext({ reducedMotion: 'reduce', ...options });
    context.setDefaultTimeout(ACTION_TIMEOUT);
    return context;
  };
  return browser;
}

export interface E2E {
  app: TestApp;
  browser: Browser;
  newPage(): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * The browser tests' apps look for queued jobs every 2 s (the production default) rather than the
 * unit tests' 0.5 s: a job the app sends wakes it at once, a job due later (a scheduled send, a
 * receipt a second after a gift) starts up to 2 s after its time, well inside a test's waits.
 */
const POLLING = { pollingIntervalSeconds: 2 };

let workerBrowser: Promise<Browser> | undefined;
let workerApp: Promise<TestApp> | undefined;

/**
 * The worker process's Chromium, launched by its first file and shared by the files it runs (one
 * at a time): each test opens its own contexts, and a file's contexts are closed when it ends.
 */
async function sharedChromium(): Promise<Browser> {
  if (workerBrowser && !(await workerBrowser).isConnected()) workerBrowser = undefined;
  workerBrowser ??= launchChromium();
  const browser = await workerBrowser;
  afterAll(async () => {
    await Promise.all(browser.contexts().map((c) => c.close()));
  });
  return browser;
}

/**
 * The worker process's app, shared by the files it runs that need no settings of their own: its
 * database is dropped when the run ends (`worker-apps.ts`). Its first account is a platform
 * administrator registered here, so a church a file registers is never the administrator; data
 * stays apart because each file registers churches of its own (and reads rows by its church).
 */
async function startWorkerApp(): Promise<TestApp> {
  const tdb = await createTestDatabase(inject('pgServerUrl'), inject('pgTemplate'), {
    name: `${inject('e2eDatabasePrefix')}${process.pid}`,
  });
  const app = await startAppOn(tdb, { webDist: path.join(webDir, 'dist') }, false, {}, POLLING);
  await registerChurch(app.url, 'Lampstand Platform');
  return app;
}

/**
 * The real server serving the built web app, and headless Chromium. Without `overrides` (and
 * without `ownApp`), the worker's shared app; else an app of the file's own on a fresh database,
 * stopped when the file ends. A file whose screens show every church's rows (the administrator's
 * lists and templates, Show Up's public projects) or that runs a controlled clock over every church
 * asks for `{ ownApp: true }`: another file's churches would be in what it counts.
 */
export async function startE2E(
  overrides: Parameters<typeof startTestApp>[0] = {},
  o: { ownApp?: boolean } = {},
): Promise<E2E> {
  const own = o.ownApp || Object.keys(overrides).length > 0;
  const app = own
    ? await startTestApp({ webDist: path.join(webDir, 'dist'), ...overrides }, {}, POLLING)
    : await (workerApp ??= startWorkerApp());
  const browser = await sharedChromium();
  return {
    app,
    browser,
    async newPage() {
      const context = await browser.newContext({ baseURL: app.url, viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      return { context, page };
    },
  };
}

/**
 * Screenshots are for people to look at, not for the tests to check: they are written only when
 * `E2E_SCREENSHOTS=1` (a developer looking at the screens they changed), so a CI run does not spend
 * its CPU encoding a few hundred PNGs nobody opens.
 */
export const screenshotsWanted = process.env.E2E_SCREENSHOTS === '1';

/**
 * Saves `e2e/screenshots/<name>.png` when screenshots are wanted: a page (the whole page, or only
 * the viewport with `{ fullPage: false }`) or one element.
 */
export async function screenshot(target: Page | Locator, name: string, o: { fullPage?: boolean } = {}): Promise<void> {
  if (!screenshotsWanted) return;
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, fullPage: o.fullPage ?? true });
  else await target.screenshot({ path: file });
}

/**
 * Screenshots of the page at each width (`<name>-<width>.png`), each once its transitions have
 * settled, then the viewport `after` (by default the last width's). No check runs at these widths:
 * the resizes are the shots' alone, so without screenshots wanted only the viewport they leave is
 * set (each resize cost Chromium a layout and a paint of the whole page, about 0.1 CPU-s).
 */
export async function shotsAtWidths(
  page: Page,
  name: string,
  o: { widths?: readonly number[]; height?: number; after?: { width: number; height: number } } = {},
): Promise<void> {
  const { widths = [390, 1024, 1366], height = 900 } = o;
  if (screenshotsWanted) {
    for (const width of widths) {
      await page.setViewportSize({ width, height });
      await animationsDone(page);
      await screenshot(page, `${name}-${width}`);
    }
  }
  await page.setViewportSize(o.after ?? { width: widths[widths.length - 1] ?? 1366, height });
}

/**
 * Puts axe in a frame once per document (a check finds it there after that), as @axe-core/playwright
 * did before every check; a child frame that is still loading or refuses a script is left out (after
 * 1 s, as that package waited) rather than failing the check.
 */
async function injectAxe(frame: Frame): Promise<void> {
  const present = () => frame.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  const inject = async () => {
    if (await present()) return;
    await frame.evaluate(axe.source);
    await frame.evaluate(() => {
      (window as unknown as { axe: typeof axe }).axe.configure({
        allowedOrigins: ['<same_origin>'],
        branding: { application: 'playwright' },
      });
    });
  };
  if (frame === frame.page().mainFrame()) return inject();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((_, reject) => {
    timer = setTimeout(() => reject(new Error('Script Timeout')), 1000);
  });
  await Promise.race([inject(), timeout])
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

/**
 * No serious or critical accessibility violations (axe). Sandboxed iframes (email previews, which
 * by design run no scripts) are swapped for an empty box first: axe cannot run inside them.
 */
export async function expectAccessible(page: Page, o: { notices?: boolean } = {}): Promise<void> {
  // Measure what people read, not a frame of a dialog fading in: wait for transitions to finish.
  await animationsDone(page);
  await page.evaluate(() => {
    for (const f of Array.from(document.querySelectorAll('iframe[sandbox]'))) {
      const box = document.createElement('div');
      box.style.cssText = `width:${(f as HTMLElement).offsetWidth}px;height:${(f as HTMLElement).offsetHeight}px`;
      f.replaceWith(box);
    }
  });
  // axe.run in the page itself, reaching same-origin frames (what @axe-core/playwright calls legacy
  // mode). Its default runs axe in each frame, then opens a blank page to merge the frames' results:
  // about 0.4 CPU-s a check against 0.08, the same rules on the same nodes (compared on seven screens).
  // What it adds is cross-origin frames, and the app has none (sandboxed previews are replaced above).
  for (const frame of page.frames()) await injectAxe(frame);
  // Toasts are left out unless asked for (`notices: true`, with one shown and settled): one that comes
  // or goes while axe runs is measured mid-animation (partly transparent), not as people read it.
  const context = { include: [], exclude: o.notices ? [] : ['.mantine-Notifications-root'] };
  // Only what the check reads comes back: the serious and critical violations. The whole result (every
  // rule's passes, with each node's HTML and selector) cost about 0.3 CPU-s a check to build, send and
  // parse, four times the rules' own work. The rules whose findings are all minor or moderate (each of
  // axe's rules has one impact, which each of its findings takes) are not run: they could add nothing.
  const bad = await page.evaluate(async (ctx) => {
    const a = (window as unknown as { axe: typeof axe & { _audit: { rules: { id: string; impact?: string }[] } } }).axe;
    const rules: Record<string, { enabled: boolean }> = {};
    for (const r of a._audit.rules)
      if (r.impact === 'minor' || r.impact === 'moderate') rules[r.id] = { enabled: false };
    const results = await a.run(ctx, { resultTypes: ['violations'], rules });
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
      }));
  }, context);
  expect(
    bad.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`)
          .slice(0, 3)
          .join(', ')})`,
    ),
  ).toEqual([]);
}

let n = 0;
export function uniqueName(prefix: string): string {
  n++;
  return `${prefix}${Date.now().toString(36)}${n}`;
}

/** Register through the UI; leaves the page on the dashboard. */
export async function registerViaUi(
  page: Page,
  o: { church: string; username: string; password: string; email: string },
) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Church Name').fill(o.church);
  await page.getByLabel('Email').fill(o.email);
  await page.getByLabel('Username').fill(o.username);
  await page.getByLabel('Password', { exact: true }).fill(o.password);
  await page.getByLabel('Confirm Password').fill(o.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  // A church that has done nothing yet is welcomed, not welcomed back.
  await page.getByRole('heading', { level: 1, name: `Welcome, ${o.church}!`, exact: true }).waitFor();
}

export async function loginViaUi(page: Page, username: string, password: string) {
  await page.goto('/auth');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The session cookies POST /api/login sets for `username`, as a browser would store them. */
async function loginCookies(baseUrl: string, username: string, password: string) {
  const client = new HttpClient(baseUrl);
  const res = await client.post('/api/login', { username, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return [...client.cookies].map(([name, value]) => ({
    name,
    value,
    url: baseUrl,
    httpOnly: true,
    sameSite: 'Lax' as const,
  }));
}

/**
 * Give `context` a session of its own, made through POST /api/login (the session cookie, as the
 * server sets it): for tests whose subject is not the sign-in form, which auth.e2e.ts covers.
 * Each call is a new session, as a sign-in through the form would be.
 */
export async function addSession(context: BrowserContext, baseUrl: string, username: string, password: string) {
  await context.addCookies(await loginCookies(baseUrl, username, password));
}

/** Each role's stored session (its cookies), by server and username: made once per test file. */
const storedSessions = new Map<string, Awaited<ReturnType<typeof loginCookies>>>();

/**
 * Signed in without the form (see addSession); leaves the page on the dashboard, as loginViaUi does,
 * or on the screen `at` names (a test that starts elsewhere loads only that screen, not the
 * dashboard first: a page load of the app costs Chromium about half a CPU-second).
 * A role signs in once per test file: later pages reuse its stored session, as a browser that stays
 * signed in would. A test that changes its session (impersonation renews the session's id; signing
 * out ends it) asks for `{ ownSession: true }`: a sign-in of its own, not stored.
 */
export async function signIn(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
  o: { ownSession?: boolean; at?: string } = {},
) {
  const key = `${baseUrl} ${username}`;
  let cookies = o.ownSession ? undefined : storedSessions.get(key);
  if (!cookies) {
    cookies = await loginCookies(baseUrl, username, password);
    if (!o.ownSession) storedSessions.set(key, cookies);
  }
  await page.context().addCookies(cookies);
  await page.goto(o.at ?? '/');
}

/**
 * Open `path` inside the staff app already loaded in `page`, as its own links do: the router moves
 * to it from the browser's history (`pushState` and the `popstate` the router listens to), with no
 * page load. A page load costs Chromium one to two CPU-seconds (the app's scripts compiled again in
 * a fresh renderer, its first queries, its styles); this costs a render. What the app has already
 * read stays in its cache, as after a click on a link, so a test that wants the server's newest
 * answer (after changing something behind the app's back) loads the page with `goto` instead.
 */
export async function openInApp(page: Page, path: string) {
  const inApp = await page.evaluate((to) => {
    // Another page than the staff app (a public page, a printout): the caller's path is loaded.
    if (!document.getElementById('root')?.hasChildNodes()) return false;
    const state = window.history.state as { idx?: number } | null;
    const key = Math.random().toString(36).slice(2, 10);
    window.history.pushState({ usr: null, key, idx: (state?.idx ?? 0) + 1 }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    return true;
  }, path);
  if (!inApp) await page.goto(path);
}

/** Wait until no transition or animation is running (a dialog opening, a toast sliding in). */
export async function animationsDone(page: Page) {
  await page.waitForFunction(
    () =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    undefined,
    { timeout: 5000 },
  );
}

/** Pick an option in a Mantine Select (or MultiSelect) by its label. */
export async function choose(page: Page, label: string, option: string) {
  const box = page.getByRole('combobox', { name: label, exact: true });
  const item = page.getByRole('option', { name: option, exact: true });
  await box.click();
  // A dropdown opened while the form around it was still re-rendering can close again at once:
  // open it once more (as a person would) if the option has not shown.
  const shown = await item.waitFor({ timeout: 10_000 }).then(
    () => true,
    () => false,
  );
  if (!shown && (await box.getAttribute('aria-expanded')) !== 'true') await box.click();
  await item.click();
}

/** A toast (Mantine notification) with this text: never confused with the same words on the page. */
export function toast(page: Page, text: string | RegExp) {
  return page.locator('.mantine-Notifications-root').getByText(text);
}

/**
 * Waits for a toast with this text, then closes it and waits until it is gone: the next toast with the
 * same words is then the only one (toasts stay 5 s, so two saves in a row could otherwise show two).
 */
export async function seeToast(page: Page, text: string | RegExp) {
  const notice = page.locator('.mantine-Notification-root').filter({ hasText: text });
  await notice.waitFor();
  await notice.locator('.mantine-Notification-closeButton').click();
  await notice.waitFor({ state: 'detached' });
}

/** No other element lies over the control: a click on any part of it reaches it. */
export async function expectUncovered(control: Locator) {
  const coveredPoints = await control.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const [midX, midY] = [(r.left + r.right) / 2, (r.top + r.bottom) / 2];
    // The centre and the middle of each edge (corners are rounded, so outside the button's shape).
    const points = [
      [midX, midY],
      [r.left + 4, midY],
      [r.right - 4, midY],
      [midX, r.top + 3],
      [midX, r.bottom - 3],
    ] as const;
    return points
      .map(([x, y]) => ({ x, y, hit: document.elementFromPoint(x, y) }))
      .filter(({ hit }) => !hit || !el.contains(hit))
      .map(({ x, y, hit }) => `(${Math.round(x)},${Math.round(y)}) ${hit?.className ?? 'nothing'}`);
  });
  expect(coveredPoints, `${String(control)} is covered`).toEqual([]);
}
