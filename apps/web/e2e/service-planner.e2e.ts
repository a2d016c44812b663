import { afterAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import {
  animationsDone,
  browserDescribe,
  choose,
  expectAccessible,
  openInApp,
  screenshot,
  shotsAtWidths,
  signIn,
  startE2E,
  toast,
} from './helpers';

const CHORDS = `{title: Amazing Grace}
{key: G}
[G]Amazing [G7]grace, how [C/G]sweet the [G]sound
That [G]saved a [Em]wretch like [D/F#]me`;

/** After a resize the shell's navbar slides: wait until no animation or transition is running. */
async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
}

async function itemTitles(page: Page) {
  return page.getByTestId('item-title').allTextContents();
}

browserDescribe(describe)('Service planner', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  // A contact to link a team member to, among others the dialog's search must pass over.
  for (const [first, last, email] of [
    ['Fay', 'Singer', 'fay@example.org'],
    ['Frank', 'Usher', 'frank@example.org'],
  ])
    await church.client.post('/api/contacts', { firstName: first, lastName: last, email, phone: '0412345678' });
  const date = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

  // One person's morning in three steps, each with its own time limit (one 300 s test hit its limit
  // on a machine at load 20): they share the planner's page, so a step runs only after the one before.
  let page: Page;
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it('builds a plan with songs and a team, saves it as a template and reorders it by keyboard', async () => {
    ({ page, context } = await e2e.newPage());
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page
      .getByText(/^Welcome( back)?, Grace Church!$/)
      .first()
      .waitFor();
    await openInApp(page, '/service-planner');
    await page.getByRole('heading', { name: 'Service Planner' }).waitFor();
    await page.getByText('No upcoming service plans').waitFor();

    // A song in G, viewed in A.
    await page.getByRole('tab', { name: 'Song Library' }).click();
    await page.getByRole('button', { name: 'Add Song' }).first().click();
    await page.getByRole('dialog', { name: 'Add Song' }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Add Song' }).click();
    await page.getByText('Title is required').waitFor();
    await expectAccessible(page);
    await page.getByLabel('Title').fill('Amazing Grace');
    await page.getByLabel('Artist').fill('John Newton');
    await choose(page, 'Key', 'G major');
    await page.getByLabel('Tempo (BPM)').fill('72');
    await page.getByLabel('Chords (ChordPro)').fill(CHORDS);
    await page.getByRole('dialog').getByRole('button', { name: 'Add Song' }).click();
    await page.getByRole('dialog', { name: 'Add Song' }).waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Amazing Grace', exact: true }).waitFor();
    // A song's title opens its chart.
    await page.getByRole('button', { name: 'Amazing Grace', exact: true }).click();
    const chart = page.getByRole('dialog', { name: 'Amazing Grace' });
    await chart.getByText('D/F#').waitFor();
    await choose(page, 'Show in key', 'A major');
    await chart.getByText('E/G#').waitFor();
    expect(await chart.getByText('D/F#').count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'planner-song-chart');
    await chart.getByRole('button', { name: 'Close' }).click();

    // A position and a team member who can fill it.
    await page.getByRole('tab', { name: 'Team Members' }).click();
    await page.getByLabel('Position name').fill('Vocals');
    await page.getByLabel('Category').fill('Band');
    await page.getByRole('button', { name: 'Add Position' }).click();
    await page.getByText('Position added').waitFor();
    // The list shows the new position (refreshed after the toast) before a member is given it.
    await page.getByRole('button', { name: 'Delete position Vocals' }).waitFor();
    await page.getByRole('button', { name: 'Add Member' }).first().click();
    const memberDialog = page.getByRole('dialog', { name: 'Add Team Member' });
    await memberDialog.getByRole('button', { name: 'Add Member' }).click();
    await memberDialog.getByText('Name is required').waitFor();
    await expectAccessible(page);
    // Linking a contact, found by the server as the name is typed, fills in the member's details.
    await memberDialog.getByRole('combobox', { name: 'Link to a contact' }).fill('Fay');
    await page.getByRole('option', { name: /Frank Usher/ }).waitFor({ state: 'detached' });
    await page.getByRole('option', { name: 'Fay Singer (fay@example.org)' }).click();
    expect(await memberDialog.getByLabel('Name').inputValue()).toBe('Fay Singer');
    expect(await memberDialog.getByLabel('Email').inputValue()).toBe('fay@example.org');
    await screenshot(page, 'planner-member-linked-contact');
    await choose(page, 'Positions', 'Band: Vocals');
    await page.keyboard.press('Escape');
    // The most times a month, and serving with the household.
    await memberDialog.getByLabel('Most times a month').fill('2');
    await memberDialog.getByRole('switch', { name: 'Schedule with my household' }).check();
    await expectAccessible(page);
    await shotsAtWidths(page, 'planner-member-rules');
    await memberDialog.getByRole('button', { name: 'Add Member' }).click();
    await memberDialog.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'Fay Singer', exact: true }).waitFor();

    // The plan, from scratch.
    await page.getByRole('tab', { name: 'Service Plans' }).click();
    await page.getByRole('button', { name: 'Item Types' }).click();
    const typesDialog = page.getByRole('dialog', { name: 'Item Types' });
    await typesDialog.getByText('Benediction').waitFor();
    await typesDialog.getByRole('button', { name: 'Add Item Type' }).click();
    await typesDialog.getByText('Name is required').waitFor();
    await expectAccessible(page);
    await typesDialog.getByLabel('Name').fill('Baptism');
    await typesDialog.getByRole('button', { name: 'Add Item Type' }).click();
    await typesDialog.getByText('Baptism').waitFor();
    await typesDialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'New Plan' }).first().click();
    const planDialog = page.getByRole('dialog', { name: 'New Service Plan' });
    await planDialog.getByRole('button', { name: 'Create Plan' }).click();
    await planDialog.getByText('Title is required').waitFor();
    await expectAccessible(page);
    await planDialog.getByLabel('Title').fill('Sunday Service');
    await planDialog.getByLabel('Date').fill(date);
    await planDialog.getByLabel('Start time').fill('10:00');
    await planDialog.getByLabel('End time').fill('10:30');
    await planDialog.getByLabel('Location').fill('Main hall');
    await planDialog.getByLabel('Theme').fill('Grace upon grace');
    await planDialog.getByRole('button', { name: 'Create Plan' }).click();
    await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();

    // Three items; the song in A for this service.
    const addItem = async (type: string, minutes: string, song?: { title: string; key: string }) => {
      await page.getByRole('button', { name: 'Add Item' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Item' });
      await choose(page, 'Type', type);
      await dialog.getByLabel('Duration (minutes)').fill(minutes);
      if (song) {
        await choose(page, 'Song', song.title);
        await page.getByRole('combobox', { name: 'Key for this service' }).fill('');
        await choose(page, 'Key for this service', song.key);
        await expectAccessible(page);
      }
      await dialog.getByRole('button', { name: 'Add Item' }).click();
      await dialog.waitFor({ state: 'detached' });
    };
    await addItem('Welcome', '5');
    await addItem('Song', '4', { title: 'Amazing Grace (John Newton)', key: 'A major' });
    await addItem('Sermon', '30');
    await page.getByText('Amazing Grace · Key of A').waitFor();

    // The plan saved as a template (its name asked first).
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Save as template' }).click();
    const templateDialog = page.getByRole('dialog', { name: 'Save as Template' });
    await templateDialog.getByLabel('Template name').fill('');
    await templateDialog.getByRole('button', { name: 'Save Template' }).click();
    await templateDialog.getByText(/required/).waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await animationsDone(page);
      await screenshot(page, `planner-save-template-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await templateDialog.getByLabel('Template name').fill('Sunday morning');
    await templateDialog.getByRole('button', { name: 'Save Template' }).click();
    await toast(page, 'Template saved').waitFor();
    // The song's title in the order of service opens its chart in this service's key.
    await page.getByTestId('plan-item').getByRole('button', { name: 'Amazing Grace', exact: true }).click();
    const planChart = page.getByRole('dialog', { name: 'Amazing Grace' });
    await planChart.getByText('E/G#').waitFor();
    await planChart.getByRole('button', { name: 'Close' }).click();
    await planChart.waitFor({ state: 'detached' });
    expect(await itemTitles(page)).toEqual(['Welcome', 'Amazing Grace', 'Sermon']);
    expect(await page.getByTestId('item-start').allTextContents()).toEqual(['10:00 AM', '10:05 AM', '10:09 AM']);
    await expect.poll(() => page.getByTestId('plan-length').textContent()).toContain('9 min over');

    // Reorder by keyboard: the sermon before the song.
    await page.getByRole('button', { name: 'Move Sermon' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('Sermon is now at position 3.').waitFor({ state: 'attached' });
    // The keyboard sensor takes arrow keys once it has measured the list after the pick-up, which a
    // loaded machine may not have done yet when the first announcement is out (CI saw one press of
    // 18 runs ignored); a person presses again, and so does the test, while it is still at 3.
    const movedUp = page.getByText('Sermon is now at position 2.');
    for (let tries = 0; tries < 5; tries++) {
      await page.keyboard.press('ArrowUp');
      if (
        await movedUp.waitFor({ state: 'attached', timeout: 2000 }).then(
          () => true,
          () => false,
        )
      )
        break;
      expect(await page.getByText('Sermon is now at position 3.').count()).toBe(1);
      console.log(`ArrowUp pressed again (try ${tries + 2}): the first press was not taken`);
    }
    await movedUp.waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await expect.poll(() => itemTitles(page)).toEqual(['Welcome', 'Sermon', 'Amazing Grace']);
    await expect
      .poll(() => page.getByTestId('item-start').allTextContents())
      .toEqual(['10:00 AM', '10:05 AM', '10:35 AM']);
    await page
      .getByRole('img', { name: 'Saving the order' })
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await page.reload();
    await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();
    await expect.poll(() => itemTitles(page)).toEqual(['Welcome', 'Sermon', 'Amazing Grace']);
  }, 180_000);

  it('asks a team member by email, and her answer shows on the plan', async () => {
    // Schedule Fay and ask her by email.
    await page.getByRole('button', { name: 'Schedule Member' }).click();
    const schedule = page.getByRole('dialog', { name: 'Schedule Member' });
    await choose(page, 'Team member', 'Fay Singer');
    await expect
      .poll(() => schedule.getByRole('combobox', { name: 'Position', exact: true }).inputValue())
      .toBe('Band: Vocals');
    await expectAccessible(page);
    await schedule.getByRole('button', { name: 'Schedule', exact: true }).click();
    await schedule.waitFor({ state: 'detached' });
    const row = page.getByTestId('assignment').filter({ hasText: 'Fay Singer' });
    await row.getByText('Scheduled').waitFor();
    await page.getByRole('button', { name: /Send Requests/ }).click();
    await page.getByText('Requests sent to 1 person', { exact: false }).first().waitFor();

    // Fay opens the link from her email (read from the outbox, where the delivery job puts it) and
    // accepts on the page.
    const fayMail = () =>
      e2e.app.db
        .selectFrom('outboxMessages')
        .select(['text', 'subject'])
        .where('userId', '=', church.user.id)
        .where('toAddress', '=', 'fay@example.org')
        .executeTakeFirst();
    await expect.poll(fayMail).toBeTruthy();
    const mail = (await fayMail())!;
    expect(mail.subject).toContain('Can you serve as Vocals');
    const link = /https?:\/\/[^\s]+\/serve\/[A-Za-z0-9_-]+\?answer=accept/.exec(mail.text!)![0];
    const fay = await e2e.browser.newContext({ baseURL: e2e.app.url });
    const fayPage = await fay.newPage();
    await fayPage.goto(new URL(link).pathname + new URL(link).search);
    await fayPage.getByRole('heading', { name: 'Can you serve?' }).waitFor();
    await fayPage.getByText('Sunday Service').waitFor();
    await expectAccessible(fayPage);
    await fayPage.setViewportSize({ width: 390, height: 800 });
    await screenshot(fayPage, 'planner-request-390');
    await fayPage.getByRole('button', { name: 'Accept: I can serve' }).click();
    await fayPage.getByRole('heading', { name: 'Thank you!' }).waitFor();
    await fay.close();

    // The planner sees it on the plan without reloading.
    await row.getByText('Confirmed').waitFor({ timeout: 20_000 });
    await page.getByText('1 of 1 confirmed').waitFor();
  }, 180_000);

  it('shows the plan at three widths, prints it and announces it', async () => {
    // Screens at three widths.
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();
      await settled(page);
      await screenshot(page, `planner-plan-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectAccessible(page);

    // Print views.
    await page.getByRole('button', { name: 'Print' }).click();
    await page.getByRole('menuitem', { name: 'Run sheet' }).click();
    await page.getByRole('heading', { name: 'Sunday Service: Run Sheet' }).waitFor();
    await page.getByRole('cell', { name: /Amazing Grace, key of A/ }).waitFor();
    await page.getByRole('cell', { name: '10:35 AM' }).waitFor();
    await expectAccessible(page);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false);
    await screenshot(page, 'planner-run-sheet-print');
    await page.emulateMedia({ media: 'screen' });
    await page.getByRole('link', { name: 'Lyrics and chords' }).click();
    await page.getByRole('heading', { name: 'Sunday Service: Lyrics and Chords' }).waitFor();
    await page.getByText('E/G#').waitFor();
    await page.getByText('Key of A').waitFor();
    await screenshot(page, 'planner-chords-print');
    await page.getByRole('link', { name: 'Back to plan' }).click();

    // Announce: email, SMS, landing-page and social-post drafts, linked back to the plan; nothing sent.
    await page.getByRole('button', { name: 'Announce' }).click();
    const announce = page.getByRole('dialog', { name: 'Announce this service' });
    await announce.getByText('An email campaign draft').waitFor();
    await announce.getByText('A social post draft linking to that page (not scheduled)').waitFor();
    await announce.getByLabel('Social post: days before the service').fill('2');
    await expectAccessible(page);
    await announce.getByRole('button', { name: 'Create Drafts' }).click();
    await announce.getByText('Drafts created').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'planner-announce');
    await announce.getByRole('link', { name: /Open Email campaign draft/ }).click();
    await page.waitForURL(/\/email-campaigns\/\d+\/edit/);
    await expect.poll(() => page.getByLabel('Campaign Name').inputValue()).toMatch(/^Sunday Service – /);
    await page.goBack();
    await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();
    await page.getByRole('link', { name: /^SMS campaign: Sunday Service/ }).click();
    await page.waitForURL(/\/sms-campaigns/);
    await expect.poll(() => page.getByLabel('Campaign Name').inputValue()).toMatch(/^Sunday Service – /);
    await expect.poll(() => page.getByLabel('Message').inputValue()).toContain('Grace Church: Sunday Service');
    await page.goBack();
    await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();
    await page.getByRole('link', { name: /^Social post: Sunday Service at Grace Church/ }).click();
    await page.waitForURL(/\/social-blast\?post=\d+/);
    const postDialog = page.getByRole('dialog', { name: 'Edit Social Post' });
    await expect
      .poll(() => postDialog.getByLabel('Post Content').inputValue())
      .toContain('Sunday Service at Grace Church');
    await expect.poll(() => postDialog.getByLabel('Link URL').inputValue()).toMatch(/\/p\/sunday-service-/);
    await postDialog.getByRole('button', { name: 'Close' }).click();
    await page.goBack();
    await page.getByRole('heading', { name: 'Sunday Service' }).waitFor();
    await page.getByRole('link', { name: /^Landing page: Sunday Service – / }).click();
    await page.waitForURL(/\/landing-pages\/\d+$/);
    await page.getByRole('heading', { name: /^Edit Sunday Service – / }).waitFor();
    await page.getByRole('textbox', { name: 'Event title' }).first().waitFor();
    // Drafts only: no text went out but Fay's request to serve (her linked contact has a mobile).
    const texts = async () =>
      (
        await e2e.app.db
          .selectFrom('outboxMessages')
          .select('text')
          .where('userId', '=', church.user.id)
          .where('channel', '=', 'sms')
          .execute()
      ).map((m) => m.text?.replace(/http\S+/, 'LINK'));
    await expect.poll(texts).toEqual([expect.stringMatching(/^Can you serve as .* Answer: LINK$/)]);

    // The list shows the team fill.
    await page.goto('/service-planner');
    await page.getByRole('link', { name: 'Sunday Service' }).first().waitFor();
    await page.getByText('1 of 1 confirmed').first().waitFor();
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 800 });
      await settled(page);
      await screenshot(page, `planner-list-${width}`);
    }
  }, 180_000);

  it('imports ChordPro files, shows a chart with its capo and Nashville numbers, and reports song usage per service time', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: '/service-planner?tab=songs' });
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Import ChordPro' }).click();
    await (
      await chooser
    ).setFiles([
      {
        name: 'be-thou-my-vision.cho',
        mimeType: 'text/plain',
        buffer: Buffer.from(
          '{title: Be Thou My Vision}\n{key: D}\n{capo: 2}\n[D]Be Thou my [G]Vi[D]sion, O [A]Lord of my [Bm]heart\n\n{soc}\n[G]High King of [D]Heaven\n{eoc}',
        ),
      },
      {
        name: 'Doxology.pro',
        mimeType: 'text/plain',
        buffer: Buffer.from('{key: Bb}\n[Bb]Praise God from [F]whom all [Gm]blessings [Eb]flow'),
      },
    ]);
    await page.getByText('Imported 2 songs').waitFor();
    await page.getByRole('button', { name: 'Be Thou My Vision', exact: true }).click();
    const chart = page.getByRole('dialog', { name: 'Be Thou My Vision' });
    await chart.getByText('Capo 2: chords as played').waitFor();
    await chart.getByText('Bm', { exact: true }).waitFor();
    // The chorus is marked on the chart.
    await chart.getByText('Chorus', { exact: true }).waitFor();
    await chart.getByText('Numbers', { exact: true }).click();
    await chart.getByText('6m', { exact: true }).waitFor();
    expect(await chart.getByText('Bm', { exact: true }).count()).toBe(0);
    await expectAccessible(page);
    await screenshot(page, 'planner-chart-numbers');
    await chart.getByRole('button', { name: 'Close' }).click();

    // A plan held at two times uses the song: the report counts it twice.
    const songs = (await church.client.get('/api/service-planner/songs?search=Vision')).body;
    const plan = (
      await church.client.post('/api/service-planner/plans', {
        title: 'Two services',
        date,
        serviceTimes: ['09:00', '11:00'],
      })
    ).body;
    await church.client.post(`/api/service-planner/plans/${plan.id}/items`, {
      title: 'Opening song',
      duration: 4,
      song: { songId: songs[0].id },
    });
    await page.getByRole('button', { name: 'Song usage' }).click();
    const report = page.getByRole('dialog', { name: 'Song usage' });
    // The coming plans are offered as well as the past months.
    await report.getByText('Coming plans', { exact: true }).click();
    await report.getByRole('columnheader', { name: 'Last planned' }).waitFor();
    const row = report.getByRole('row', { name: /Be Thou My Vision/ });
    await expect
      .poll(() => row.getByRole('cell').allTextContents())
      .toEqual(['Be Thou My Vision', '', '—', '2', expect.any(String)]);
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 800 });
      await settled(page);
      await screenshot(page, `planner-song-usage-${width}`);
    }
    await context.close();
  }, 120_000);
});
