import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, shotsAtWidths, signIn, startE2E, toast } from './helpers';

// Staff build *Welcome a first-time guest* from its starter, activate it, and a
// visitor who signs up on a landing page gets the welcome email; the call shows on the dashboard's
// 'My follow-ups' and the steps in the person's Activity.
browserDescribe(describe)('Journeys', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Lampstand Platform'); // the first account is the admin
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const landing = await church.client.post('/api/landing-pages', {
    name: 'Easter at Grace',
    slug: 'easter-journeys',
    published: true,
    content: { blocks: [{ id: 'form', type: 'signup', title: 'Plan your visit', fields: [] }] },
  });
  expect(landing.status, landing.text).toBe(201);
  // The church's tags, which the tag pickers offer.
  const tagged = await church.client.post('/api/contacts', {
    firstName: 'Tess',
    lastName: 'Tagged',
    email: 'tess@example.org',
    phone: '0412345679',
    tags: ['engaged', 'newcomer'],
  });
  expect(tagged.status, tagged.text).toBe(201);

  const emailTo = (to: string, subject?: string) => {
    let q = e2e.app.db
      .selectFrom('outboxMessages')
      .select(['subject', 'text', 'html'])
      .where('userId', '=', church.user.id)
      .where('channel', '=', 'email')
      .where('toAddress', '=', to);
    if (subject) q = q.where('subject', '=', subject);
    return q.orderBy('id', 'desc').executeTakeFirst();
  };
  const shots = (page: Page, name: string) => shotsAtWidths(page, name);

  it('builds Welcome a first-time guest from its starter, activates it, and follows a visitor who signs up', async () => {
    const { page } = await e2e.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await signIn(page, e2e.app.url, church.user.username, church.password);

    // Marketing → Journeys: empty, then 'New journey' offers the four starters.
    await page.getByRole('navigation', { name: 'Outreach' }).getByRole('link', { name: 'Journeys' }).click();
    await page.getByRole('heading', { level: 1, name: 'Journeys' }).waitFor();
    await page.getByText('No journeys yet').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New journey' }).first().click();
    const create = page.getByRole('dialog', { name: 'New journey' });
    for (const name of [
      'Welcome a first-time guest',
      'Thank a first-time giver',
      'Birthday greeting',
      'Welcome a new volunteer',
    ])
      await create.getByRole('button', { name: `Start from ${name}` }).waitFor();
    await create.getByRole('button', { name: 'Start blank' }).click();
    await create.getByText('Journey name is required').waitFor();
    await expectAccessible(page);
    await shots(page, 'journeys-new');
    await create.getByRole('button', { name: 'Start from Welcome a first-time guest' }).click();

    // The editor: the summary sentence, the steps in order, '+' between them.
    await page.getByRole('heading', { level: 1, name: 'Welcome a first-time guest' }).waitFor();
    const summary = page.getByTestId('journey-summary');
    await expect
      .poll(() => summary.textContent())
      .toBe(
        "When someone signs up on any landing page: send Welcome, ask staff to Call Tess Tagged, wait 2 days, text Pastor's hello, wait 5 days, send Newcomers' lunch.",
      );
    // The merge tags are filled from a sample person, named under the summary.
    await page.getByText('Merge tags filled from Tess Tagged').waitFor();
    await page.getByRole('button', { name: /^Edit Step 1 · Send email/ }).waitFor();
    await page.getByRole('button', { name: /^Edit Step 6 · Send email Send Newcomers' lunch/ }).waitFor();

    // The trigger: this page only.
    await page.getByRole('button', { name: 'Trigger and settings' }).first().click();
    const settings = page.getByRole('dialog', { name: 'Trigger and settings' });
    await settings.getByRole('combobox', { name: 'Landing page' }).click();
    await page.getByRole('option', { name: 'Easter at Grace' }).click();
    await settings.getByText('When someone signs up on Easter at Grace').waitFor();
    await expectAccessible(page);
    await settings.getByRole('button', { name: 'Apply' }).click();
    await settings.waitFor({ state: 'detached' });
    await expect.poll(() => summary.textContent()).toMatch(/^When someone signs up on Easter at Grace: send Welcome/);

    // Step 1 in its drawer: the rich editor, merge tags, the subject.
    await page.getByRole('button', { name: /^Edit Step 1 · Send email/ }).click();
    const emailStep = page.getByRole('dialog', { name: 'Step 1: Send email' });
    expect(await emailStep.getByLabel('Subject').inputValue()).toBe('Welcome to {{churchName}}');
    await emailStep.getByRole('textbox', { name: 'Email content' }).waitFor();
    await emailStep.getByRole('button', { name: '{{firstName}}' }).waitFor();
    await expectAccessible(page);
    await shots(page, 'journey-email-step');
    await emailStep.getByRole('button', { name: 'Cancel' }).click();
    await emailStep.waitFor({ state: 'detached' });

    // A branch after the first wait, its yes path tagging people who opened the welcome.
    await page.getByRole('button', { name: 'Add a step after step 3' }).click();
    await page.getByRole('menuitem', { name: 'Branch' }).click();
    const branch = page.getByRole('dialog', { name: 'New step: Branch' });
    expect(await branch.getByRole('combobox', { name: 'Condition' }).inputValue()).toBe('Opened the previous email');
    await branch.getByRole('button', { name: 'Add step' }).click();
    await branch.waitFor({ state: 'detached' });
    await page.getByRole('group', { name: 'The two paths of step 4' }).waitFor();
    await page.getByRole('button', { name: 'Add a step on the yes path of step 4' }).click();
    await page.getByRole('menuitem', { name: 'Add tag' }).click();
    const tag = page.getByRole('dialog', { name: 'New step: Add tag' });
    await tag.getByRole('button', { name: 'Add step' }).click();
    await tag.getByText('Tag is required').waitFor();
    await expectAccessible(page);
    // The tag is picked from the church's tags as it is typed (a new one could be typed in full).
    await tag.getByRole('combobox', { name: 'Tag' }).fill('eng');
    await page.getByRole('option', { name: 'engaged' }).waitFor();
    expect(await page.getByRole('option', { name: 'newcomer' }).count()).toBe(0);
    await expectAccessible(page);
    await shots(page, 'journey-tag-picker');
    await page.getByRole('option', { name: 'engaged' }).click();
    expect(await tag.getByRole('combobox', { name: 'Tag' }).inputValue()).toBe('engaged');
    await tag.getByRole('button', { name: 'Add step' }).click();
    await tag.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /^Edit Step 5 · Add tag Tag engaged/ }).waitFor();
    await expect.poll(() => summary.textContent()).toContain('if they opened the previous email: tag engaged');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await toast(page, 'Journey saved').waitFor();
    await shots(page, 'journey-editor');

    // Activation asks first and says who the trigger could reach.
    await page.getByRole('button', { name: 'Activate' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate Welcome a first-time guest?' });
    await activate.getByText('Each person the trigger finds from now on enters the journey.').waitFor();
    await expectAccessible(page);
    await activate.getByRole('button', { name: 'Activate' }).click();
    await toast(page, 'Journey activated').waitFor();
    await page.getByText('This journey is running').waitFor();
    await page.getByText('Saving changes creates a new version for people who enter from now on.').waitFor();

    // A visitor signs up on the page and confirms by the link in their email.
    const visitorContext = await e2e.browser.newContext({
      baseURL: e2e.app.url,
      viewport: { width: 390, height: 844 },
    });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/p/easter-journeys');
    await visitor.getByLabel('Name').fill('Ada Lovelace');
    await visitor.getByLabel('Email').fill('ada@example.org');
    await visitor.getByRole('button', { name: 'Sign up' }).click();
    await visitor.getByText('Thank you! Please check your email').waitFor();
    await expect.poll(() => emailTo('ada@example.org'), { timeout: 60_000 }).toBeTruthy();
    const confirmation = await emailTo('ada@example.org');
    const link = /http:\/\/\S+\/p\/easter-journeys\/confirm\/[\w-]+/.exec(confirmation?.text ?? '')![0];
    await visitor.goto(new URL(link).pathname);
    await visitor.getByRole('button', { name: 'Confirm my sign-up' }).click();
    await visitor.getByText('is confirmed').waitFor();
    await visitorContext.close();

    // The welcome goes out through the delivery engine.
    await expect.poll(() => emailTo('ada@example.org', 'Welcome to Grace Church'), { timeout: 60_000 }).toBeTruthy();
    const welcome = await emailTo('ada@example.org', 'Welcome to Grace Church');
    expect(welcome?.text).toContain('Hello Ada,');

    // The call on the dashboard's 'My follow-ups'.
    await expect
      .poll(
        () =>
          e2e.app.db
            .selectFrom('tasks')
            .select(['title', 'assigneeContactId', 'status'])
            .where('userId', '=', church.user.id)
            .execute(),
        {
          timeout: 30_000,
        },
      )
      .toEqual([{ title: 'Call Ada Lovelace', assigneeContactId: null, status: 'open' }]);
    await page.goto('/');
    await page.getByRole('list', { name: 'My follow-ups' }).getByText('Call Ada Lovelace').waitFor();
    await page.getByRole('button', { name: 'Reassign Call Ada Lovelace' }).first().click();
    const reassign = page.getByRole('dialog', { name: 'Reassign Call Ada Lovelace' });
    await reassign.getByRole('combobox', { name: 'Assign to' }).waitFor();
    await expectAccessible(page);
    await reassign.getByRole('button', { name: 'Cancel' }).click();
    await shots(page, 'journeys-dashboard');

    // The Tasks page: the same task; done.
    await page.getByRole('navigation', { name: 'People' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    await page.getByRole('table', { name: 'Tasks' }).getByText('Call Ada Lovelace').waitFor();
    await expectAccessible(page);
    await shots(page, 'journeys-tasks');
    await page.getByRole('button', { name: 'Mark Call Ada Lovelace done' }).click();
    await toast(page, 'Task done').waitFor();
    await page.getByText('No open tasks. Well done!').waitFor();

    // The steps in the person's Activity.
    const ada = await e2e.app.db
      .selectFrom('contacts')
      .select('id')
      .where('userId', '=', church.user.id)
      .where('email', '=', 'ada@example.org')
      .executeTakeFirstOrThrow();
    await page.goto(`/contacts/detail/${ada.id}?tab=activity`);
    const timeline = page.getByLabel('Activity', { exact: true });
    await timeline.getByText('Entered Welcome a first-time guest').waitFor();
    await timeline.getByText('Sent Welcome').waitFor();
    await timeline.getByText('Was sent an email').waitFor();
    await timeline.getByText(/Task Call Ada Lovelace assigned to/).waitFor();
    await expectAccessible(page);
    await shots(page, 'journeys-activity');

    // The list's card and the editor's counts.
    await page.goto('/journeys');
    await page.getByRole('heading', { name: 'Welcome a first-time guest' }).waitFor();
    await page.getByText('When someone signs up on Easter at Grace').waitFor();
    await expectAccessible(page);
    await shots(page, 'journeys-list');
    await page.getByRole('link', { name: 'Open Welcome a first-time guest' }).click();
    await page
      .getByRole('button', { name: /^Edit Step 1 · Send email/ })
      .getByText('1 sent')
      .waitFor();

    // 'Test this journey' to the account's own address: each step as it happens.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Test this journey' }).click();
    const test = page.getByRole('dialog', { name: 'Test Welcome a first-time guest' });
    await test.getByRole('radio', { name: /My own address/ }).waitFor();
    // A test does not wait for quiet hours, and says so.
    await test.getByText('Quiet hours are skipped in a test').waitFor();
    await expectAccessible(page);
    await test.getByRole('button', { name: 'Start test' }).click();
    await test.getByText('Step 1').waitFor({ timeout: 60_000 });
    await expectAccessible(page);
    await shots(page, 'journeys-test');
    await test.getByRole('button', { name: 'Close', exact: true }).last().click();
    await test.waitFor({ state: 'detached' });

    // 'Enrol people': Ada is in it already (once per person), so she is left out.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Enrol people' }).click();
    const enrol = page.getByRole('dialog', { name: 'Enrol people in Welcome a first-time guest' });
    await enrol.getByRole('combobox', { name: 'Contacts' }).fill('Ada');
    await page.getByRole('option', { name: 'Ada Lovelace (ada@example.org)' }).click();
    await expectAccessible(page);
    await enrol.getByRole('button', { name: 'Enrol 1 person' }).click();
    await toast(page, /0 people entered Welcome a first-time guest\. 1 person left out/).waitFor();

    // Pause asks first.
    await page.getByRole('button', { name: 'Pause' }).click();
    const pause = page.getByRole('dialog', { name: 'Pause Welcome a first-time guest?' });
    await pause.getByText('While it is paused no one new enters').waitFor();
    await pause.getByRole('button', { name: 'Pause' }).click();
    await toast(page, 'Journey paused').waitFor();
    await page.getByRole('button', { name: 'Activate' }).waitFor();

    // Archive asks first; the journey is then read-only and listed under Archived with its figures.
    await page.getByRole('button', { name: 'More' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    const archive = page.getByRole('dialog', { name: 'Archive journey' });
    await archive.getByText(/It stops for good and keeps its figures/).waitFor();
    await archive.getByRole('button', { name: 'Archive' }).click();
    await toast(page, 'Journey archived').waitFor();
    await page.getByText('This journey is archived').waitFor();
    expect(await page.getByRole('button', { name: 'Activate' }).count()).toBe(0);
    await expectAccessible(page);
    await shots(page, 'journey-archived');
    await page.getByRole('link', { name: 'All journeys' }).click();
    const archived = page.getByRole('heading', { level: 2, name: 'Archived' });
    await archived.waitFor();
    await page.getByRole('link', { name: 'Open Welcome a first-time guest' }).waitFor();
    await shots(page, 'journeys-archived-list');
  }, 300_000);

  it('lists what stops a journey from running on its steps, and refuses to activate it', async () => {
    const created = await church.client.post('/api/journeys', {
      name: 'Advent letters',
      trigger: { kind: 'manual' },
      steps: [
        { id: 'wait', kind: 'wait', wait: { mode: 'duration', amount: 1, unit: 'days' }, next: 'letter' },
        { id: 'letter', kind: 'email', name: 'First letter', next: null },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/journeys/${created.body.id}` });
    await page.getByRole('heading', { level: 1, name: 'Advent letters' }).waitFor();
    await page.getByRole('button', { name: 'Activate' }).click();
    const activate = page.getByRole('dialog', { name: 'Activate Advent letters?' });
    await activate.getByText('This journey cannot run yet').waitFor();
    const problem = await activate.getByRole('listitem').first().textContent();
    expect(problem).toMatch(/^Step 2: /);
    expect(await activate.getByRole('button', { name: 'Activate' }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await activate.getByRole('button', { name: 'Cancel' }).click();
    // The same words on step 2's card, and in its drawer.
    await page
      .getByRole('button', { name: /^Edit Step 2 · Send email/ })
      .getByText(problem!)
      .waitFor();
    await page.getByRole('button', { name: /^Edit Step 2 · Send email/ }).click();
    await page.getByRole('dialog', { name: 'Step 2: Send email' }).getByText(problem!).waitFor();
    await expectAccessible(page);
  }, 120_000);

  it('says when someone waits for quiet hours to end, in the church’s time', async () => {
    const created = await church.client.post('/api/journeys', {
      name: 'Evening text',
      trigger: { kind: 'manual' },
      steps: [{ id: 'txt', kind: 'sms', name: 'Hello', body: 'Hi {{firstName}}', next: null }],
    });
    expect(created.status, created.text).toBe(201);
    const activated = await church.client.post(`/api/journeys/${created.body.id}/activate`);
    expect(activated.status, activated.text).toBeLessThan(300);
    // Tess is held by quiet hours until 8:00 tomorrow in the church's zone (made UTC here).
    await e2e.app.db
      .updateTable('churchSettings')
      .set({ timeZone: 'UTC' })
      .where('userId', '=', church.user.id)
      .execute();
    const eight = new Date();
    eight.setUTCDate(eight.getUTCDate() + 1);
    eight.setUTCHours(8, 0, 0, 0);
    await e2e.app.db
      .insertInto('journeyEnrollments')
      .values({
        userId: church.user.id,
        journeyId: created.body.id,
        version: 1,
        contactId: tagged.body.id,
        status: 'active',
        currentStepId: 'txt',
        nextRunAt: eight,
      })
      .execute();
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password, { at: `/journeys/${created.body.id}` });
    const people = page.getByRole('table', { name: 'People in this journey' });
    await people.getByText('Waiting for quiet hours to end (8:00 AM)').waitFor();
    await expectAccessible(page);
    await shots(page, 'journey-quiet-hours');
  }, 120_000);
});
