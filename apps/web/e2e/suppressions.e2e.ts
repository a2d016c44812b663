import { describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { animationsDone, browserDescribe, expectAccessible, signIn, screenshot, startE2E, toast } from './helpers';

// Settings → Suppressed addresses (issue 32 §6): a bounced address is listed with its reason;
// removing it asks first, and the address leaves the list.
browserDescribe(describe)('Suppressed addresses', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  await e2e.app.db
    .insertInto('emailSuppressions')
    .values({ userId: church.user.id, email: 'gone@example.org', reason: 'hard_bounce', detail: '5.1.1 User unknown' })
    .execute();

  it('lists a bounced address and removes it after asking', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: 'Welcome back, Grace Church!' }).waitFor();
    await page.goto('/settings');
    await page.getByRole('heading', { name: 'Suppressed addresses' }).waitFor();
    await page.getByRole('cell', { name: 'gone@example.org', exact: true }).waitFor();
    await page.getByText('5.1.1 User unknown').waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Suppressed addresses' }).scrollIntoViewIfNeeded();
      await animationsDone(page);
      await screenshot(page, `suppressions-${width}`);
    }
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.getByRole('button', { name: 'Remove gone@example.org' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove from the suppression list' });
    await dialog.getByText('Remove gone@example.org? The next emails will be sent to it again.').waitFor();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await toast(page, 'Address removed from the suppression list').waitFor();
    await page.getByText('No suppressed addresses.').waitFor();
    expect((await church.client.get('/api/suppressions')).body).toEqual([]);
  });
});
