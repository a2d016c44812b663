import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, screenshot, shotsAtWidths, signIn, startE2E, toast } from './helpers';

// A church's public home: staff set it up in Settings; a visitor on a phone reads
// it and joins a public list.
browserDescribe(describe)('Church public home', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace City Church');
  const other = await registerChurch(e2e.app.url, 'Hope Chapel');
  const taken = await other.client.put('/api/settings/public-profile', { handle: 'hope-chapel' });
  expect(taken.status, taken.text).toBe(200);

  it('staff choose a handle and what the page shows; a visitor on a phone reads it and joins a list', async () => {
    const list = await church.client.post('/api/contact-lists', { name: 'Newsletter' });
    expect(list.status, list.text).toBe(201);
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);

    // Contacts → Lists: the list is made public in its dialog.
    await page.goto('/contacts?tab=lists');
    await page.getByRole('button', { name: 'Actions for Newsletter' }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit List' });
    await dialog.getByRole('switch', { name: 'Public: people may join this list themselves' }).click({ force: true });
    await dialog.getByLabel('Public description').fill('News from Grace once a month.');
    await dialog.getByRole('button', { name: 'Update List' }).click();
    await toast(page, 'List updated').waitFor();

    await page.goto('/settings/profile');
    const handle = page.getByLabel('Handle');
    await expect.poll(() => handle.inputValue()).toBe('grace-city-church');
    await handle.fill('hope-chapel');
    await page.getByLabel('Service times').fill('Sundays 9:00 and 10:30 am');
    await page.getByRole('button', { name: 'Save public profile' }).click();
    await page.getByText('This handle is taken').waitFor();
    await handle.fill('grace-city');
    await page.getByLabel('Short description').fill('A church for the whole city.');
    await page.getByLabel('Address', { exact: true }).fill('1 Church Street\nSpringfield');
    await page.getByRole('button', { name: 'Save public profile' }).click();
    await toast(page, 'Public profile saved').waitFor();
    await page.getByRole('link', { name: 'View your public page' }).waitFor();
    await expectAccessible(page);

    const visitorContext = await e2e.browser.newContext({
      baseURL: e2e.app.url,
      viewport: { width: 390, height: 844 },
    });
    const visitor = await visitorContext.newPage();
    await visitor.goto('/c/grace-city');
    await visitor.getByRole('heading', { level: 1, name: 'Grace City Church' }).waitFor();
    await visitor.getByText('Sundays 9:00 and 10:30 am').waitFor();
    // The list's description, a map of the address (a plain link), and a clear Give button.
    await visitor.getByText('News from Grace once a month.').waitFor();
    expect(await visitor.getByRole('link', { name: 'Show on a map (OpenStreetMap)' }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/search?query=1%20Church%20Street%2C%20Springfield',
    );
    expect(await visitor.getByRole('link', { name: 'Give to Grace City Church' }).getAttribute('href')).toBe(
      '/c/grace-city/give',
    );
    await expectAccessible(visitor);
    await shotsAtWidths(visitor, 'church-home', { after: { width: 390, height: 844 } });
    expect(await visitor.getByRole('checkbox', { name: /Newsletter/ }).isChecked()).toBe(true);
    await visitor.getByLabel('Name').fill('Priscilla Tent');
    await visitor.getByLabel('Email').fill('priscilla@example.org');
    await visitor.getByRole('button', { name: 'Join' }).click();
    await visitor.getByText('Thank you! Please check your email').waitFor();
    // An address with no church says so (not 'landing page').
    await visitor.goto('/c/no-church-here');
    await visitor.getByRole('heading', { level: 1, name: 'Church not found' }).waitFor();
    await visitor.getByText("We couldn't find a church at this address.", { exact: false }).waitFor();
    await expectAccessible(visitor);
    await screenshot(visitor, 'church-not-found-390');
    await visitorContext.close();

    const joined = await e2e.app.db
      .selectFrom('contactsInLists as m')
      .innerJoin('contacts as c', 'c.id', 'm.contactId')
      .select('m.listId')
      .where('c.userId', '=', church.user.id)
      .where('c.email', '=', 'priscilla@example.org')
      .execute();
    expect(joined.map((j) => j.listId)).toEqual([list.body.id]);
  }, 120_000);
});
