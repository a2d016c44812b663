import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openInApp, screenshot } from '../helpers';
import { axe, tally } from './checks';

export const WIDTHS = [390, 1024, 1366] as const;

export interface Screen {
  name: string;
  path: string;
  heading: string | RegExp;
  /** Controls a person needs on this screen: each must be inside the viewport's width. */
  actions: (page: Page) => Locator[];
  admin?: boolean;
  /**
   * The screen's list of records: a table named `label` from 768 px, and on a phone a list of cards,
   * each with the record's name first, the `values` under it, and the named `action` last.
   */
  records?: { label: string; name: string; values?: string[]; action: string; axe?: boolean };
}

/**
 * The main screens, each checked at every width. The administrator's users come last: their visit
 * impersonates a church (see visits.ts), which renews the administrator's session.
 */
export const SCREENS: Screen[] = [
  {
    name: 'dashboard',
    path: '/',
    heading: /^Welcome( back)?, Grace Church!$/,
    actions: (p) =>
      ['New Email Campaign', 'New SMS Campaign', 'Create Landing Page', 'Generate QR Code', 'Add Contacts'].map((n) =>
        p.getByRole('link', { name: n }),
      ),
  },
  {
    name: 'contacts',
    path: '/contacts',
    heading: 'Contacts',
    actions: (p) => [
      p.getByRole('button', { name: 'Add Contact' }).first(),
      p.getByRole('button', { name: 'View Bartholomew Nathanael-Cana' }),
      p.getByRole('button', { name: 'Edit Bartholomew Nathanael-Cana' }),
    ],
    records: {
      label: 'Contacts',
      name: 'Bartholomew Nathanael-Cana',
      values: ['Bartholomew@example.org'],
      action: 'Edit Bartholomew Nathanael-Cana',
      axe: true,
    },
  },
  {
    name: 'email-campaigns',
    path: '/email-campaigns',
    heading: 'Email Campaigns',
    actions: (p) => [
      p.getByRole('link', { name: 'New Campaign' }),
      p.getByRole('link', { name: 'View Harvest thanksgiving invitation' }),
      p.getByRole('link', { name: 'Edit Harvest thanksgiving invitation' }),
    ],
    records: {
      label: 'Email campaigns',
      name: 'Harvest thanksgiving invitation',
      values: ['Draft'],
      action: 'Edit Harvest thanksgiving invitation',
    },
  },
  {
    name: 'sms-campaigns',
    path: '/sms-campaigns',
    heading: 'SMS Campaigns',
    actions: (p) => [
      p.getByRole('button', { name: 'New Campaign' }),
      p.getByRole('button', { name: 'Edit Youth night reminder' }),
      p.getByRole('button', { name: 'Delete Youth night reminder' }),
    ],
    records: {
      label: 'SMS campaigns',
      name: 'Youth night reminder',
      values: ['Youth Parents'],
      action: 'Delete Youth night reminder',
    },
  },
  {
    name: 'templates',
    path: '/templates',
    heading: 'Templates',
    actions: (p) => [p.getByRole('combobox', { name: 'Category' }), p.getByRole('tab', { name: 'Packages' })],
  },
  {
    name: 'landing-pages',
    path: '/landing-pages',
    heading: 'Landing Pages',
    actions: (p) => [
      p.getByRole('button', { name: 'Create Landing Page' }),
      p.getByRole('button', { name: 'Actions for Easter Sunday at Grace' }),
    ],
  },
  {
    name: 'qr-codes',
    path: '/qr-codes',
    heading: 'QR Codes',
    actions: (p) => [
      p.getByRole('button', { name: 'Create QR Code' }),
      p.getByRole('button', { name: 'Actions for Welcome card' }),
    ],
    records: {
      label: 'QR codes',
      name: 'Welcome card',
      values: ['https://example.org/welcome'],
      action: 'Actions for Welcome card',
    },
  },
  {
    name: 'show-up',
    path: '/show-up',
    heading: 'Show Up',
    actions: (p) => [p.getByRole('link', { name: 'List a Project' }).first()],
  },
  {
    name: 'service-planner',
    path: '/service-planner',
    heading: 'Service Planner',
    actions: (p) => [
      p.getByRole('button', { name: 'New Plan' }),
      p.getByRole('button', { name: /^Actions for Sunday Morning Worship/ }),
    ],
    records: {
      label: 'Service plans',
      name: 'Sunday Morning Worship',
      values: ['No one scheduled'],
      action: 'Actions for Sunday Morning Worship',
    },
  },
  {
    name: 'songs',
    path: '/service-planner?tab=songs',
    heading: 'Service Planner',
    actions: (p) => [
      p.getByRole('button', { name: 'Add Song' }),
      p.getByRole('button', { name: 'Amazing Grace', exact: true }),
    ],
    records: { label: 'Songs', name: 'Amazing Grace', values: ['John Newton'], action: 'Actions for Amazing Grace' },
  },
  {
    name: 'team',
    path: '/service-planner?tab=team',
    heading: 'Service Planner',
    actions: (p) => [p.getByRole('button', { name: 'Add Member' })],
    records: {
      label: 'Team members',
      name: 'Fay Organist',
      values: ['fay@example.org'],
      action: 'Actions for Fay Organist',
    },
  },
  {
    name: 'social-blast',
    path: '/social-blast',
    heading: 'Social Blast',
    actions: (p) => [p.getByRole('button', { name: 'Create New Post' })],
  },
  {
    name: 'admin-templates',
    path: '/admin/templates',
    heading: 'Marketing Templates & Packages',
    admin: true,
    actions: (p) => [p.getByRole('button', { name: 'New Template' })],
  },
  {
    name: 'admin-users',
    path: '/admin/users',
    heading: 'User Management',
    admin: true,
    actions: (p) => [p.getByRole('button', { name: 'Impersonate Grace Church' })],
    records: {
      label: 'Church accounts',
      name: 'Grace Church',
      // The username and email under their names (registerChurch makes user_… and office_…@example.org).
      values: ['Usernameuser_', 'Emailoffice_'],
      action: 'Impersonate Grace Church',
      axe: true,
    },
  },
  {
    name: 'journeys',
    path: '/journeys',
    heading: 'Journeys',
    actions: (p) => [p.getByRole('button', { name: 'New journey' }).first()],
  },
  {
    name: 'tasks',
    path: '/tasks',
    heading: 'Tasks',
    actions: (p) => [p.getByRole('combobox', { name: 'Assigned to' })],
  },
  {
    name: 'groups',
    path: '/groups',
    heading: 'Groups',
    actions: (p) => [
      p.getByRole('button', { name: 'New group' }).first(),
      p.getByRole('button', { name: 'Export CSV' }),
    ],
  },
  {
    name: 'events',
    path: '/events',
    heading: 'Events',
    actions: (p) => [p.getByRole('link', { name: 'New event' }).first()],
  },
];

/**
 * From 768 px a list of records is a table; on a phone it is cards (no table at all): each card
 * starts with the record's name and ends with its actions.
 */
async function expectRecords(page: Page, r: NonNullable<Screen['records']>, width: number) {
  if (width >= 768) {
    await page
      .getByRole('table', { name: r.label })
      .getByRole('row', { name: new RegExp(r.name) })
      .waitFor();
    return;
  }
  const card = page.getByRole('list', { name: r.label }).getByRole('listitem').filter({ hasText: r.name }).first();
  await card.waitFor();
  expect(await page.locator('table:visible').count(), `${r.label}: no table on a phone`).toBe(0);
  const seen = await card.evaluate((el) => ({
    first: el.firstElementChild?.textContent ?? '',
    text: el.textContent ?? '',
    lastActions: Array.from(el.lastElementChild?.querySelectorAll('button, a') ?? []).map(
      (b) => b.getAttribute('aria-label') ?? b.textContent,
    ),
  }));
  expect(seen.first.startsWith(r.name), `${r.label}: the card starts with ${r.name}`).toBe(true);
  for (const v of r.values ?? []) expect(seen.text, `${r.label}: the card shows ${v}`).toContain(v);
  expect(
    seen.lastActions.some((a) => a?.startsWith(r.action)),
    `${r.label}: the card ends with its actions (${r.action} among ${seen.lastActions.join(', ')})`,
  ).toBe(true);
  if (r.axe) await axe(page);
}

async function expectInsideWidth(page: Page, control: Locator, width: number) {
  await control.waitFor();
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, String(control)).not.toBeNull();
  expect({ control: String(control), left: box!.x >= 0, right: box!.x + box!.width <= width }).toEqual({
    control: String(control),
    left: true,
    right: true,
  });
}

/**
 * The screen at this width: its heading, its primary actions inside the viewport's width, its
 * records (a table, or cards on a phone), one level-1 heading, no button label or badge cut, and
 * no sideways scrolling.
 */
export async function checkScreenAtWidth(p: Page, s: Screen, width: number) {
  tally.screenWidths++;
  // The dashboard is where signing in left the page: a second load of it would check nothing more.
  // The other screens are opened from inside the app, as its menu would (the seed does not change
  // behind the app's back, so nothing it has read is stale).
  const here = new URL(p.url());
  if (here.pathname + here.search !== s.path) await openInApp(p, s.path);
  await p.getByRole('heading', { level: 1, name: s.heading }).waitFor();
  for (const control of s.actions(p)) await expectInsideWidth(p, control, width);
  if (s.records) await expectRecords(p, s.records, width);
  expect(await p.getByRole('heading', { level: 1 }).count(), `${s.name}: one level-1 heading`).toBe(1);
  const cut = await p.evaluate(() =>
    Array.from(document.querySelectorAll('.mantine-Button-label, .mantine-Badge-root, .mantine-Badge-label'))
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => e.textContent),
  );
  expect(cut, `${s.name}: button labels and badges cut`).toEqual([]);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${s.name} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
  await p.evaluate(() => window.scrollTo(0, 0));
  await screenshot(p, `width-${width}-${s.name}`);
}
