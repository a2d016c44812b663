import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, openInApp, screenshot, seeToast, signIn, startE2E } from './helpers';

/** A day of the current month, as the calendar names its cell and the date picker its button. */
function dayOfThisMonth(n: number) {
  const d = new Date();
  d.setDate(n);
  const month = d.toLocaleString('en-US', { month: 'long' });
  return {
    cell: `${d.toLocaleString('en-US', { weekday: 'long' })}, ${month} ${n}, ${d.getFullYear()}`,
    short: `${d.toLocaleString('en-US', { month: 'short' })} ${n}, ${d.getFullYear()}`,
    picker: `${n} ${month} ${d.getFullYear()}`,
  };
}

// A 1×1 PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const cell = (page: Page, name: string) => page.getByRole('group', { name, exact: true });
/** A segmented control's option: its radio is visually hidden, people click the label. */
const segment = (scope: Page | Locator, name: string) =>
  scope.locator('.mantine-SegmentedControl-label', { hasText: new RegExp(`^${name}$`) });

browserDescribe(describe)('Social Blast', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');
  const tomorrow = new Date(Date.now() + 86_400_000);
  tomorrow.setHours(10, 0, 0, 0);
  await church.client.post('/api/social-posts', {
    content: 'Prayer breakfast tomorrow, 10am in the hall',
    scheduledFor: tomorrow.toISOString(),
    platforms: ['facebook', 'twitter'],
  });

  it('create a post on a day, see it in the cell, edit it, move it, delete it', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page
      .getByText(/^Welcome( back)?, Grace Church!$/)
      .first()
      .waitFor();
    await openInApp(page, '/social-blast');
    await page.getByRole('heading', { name: 'Social Blast' }).waitFor();
    // No webhook yet: the calendar says so.
    await page.getByText('Posts will not publish until a webhook is set in').waitFor();

    const tenth = dayOfThisMonth(10);
    const twelfth = dayOfThisMonth(12);
    await page.getByRole('button', { name: `Add post on ${tenth.short}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule New Social Post' });
    await dialog.waitFor();
    // Facebook is chosen and the status is Scheduled by default.
    expect(await dialog.getByRole('checkbox', { name: 'Facebook' }).isChecked()).toBe(true);
    expect(await dialog.getByLabel('Status', { exact: true }).inputValue()).toBe('Scheduled');

    // The spec's messages, then axe with the dialog open and its errors showing.
    await dialog.getByRole('checkbox', { name: 'Facebook' }).uncheck();
    await dialog.getByRole('button', { name: 'Schedule Post' }).click();
    await dialog.getByText('Post content is required').waitFor();
    await dialog.getByText('Select at least one platform').waitFor();
    await expectAccessible(page);
    await screenshot(page, 'social-dialog-errors');

    await dialog.getByLabel('Post Content').fill('Easter egg hunt after the 10am service, all kids welcome!');
    await dialog.getByRole('checkbox', { name: 'Facebook' }).check();
    await dialog.getByRole('checkbox', { name: 'X (Twitter)' }).check();
    await dialog.getByRole('checkbox', { name: 'Instagram' }).check();
    await dialog.getByTestId('length-counter').getByText('X (Twitter): 57 / 280').waitFor();
    await segment(dialog, 'From a URL').click();
    await dialog.getByLabel('Image URL').fill('not a link');
    await dialog.getByLabel('Link URL').fill('grace.example');
    await dialog.getByRole('button', { name: 'Schedule Post' }).click();
    await dialog.getByText('Link must be a valid URL').waitFor();
    await dialog.getByText('Image URL must be a valid URL').waitFor();
    await dialog.getByLabel('Image URL').fill('');
    await dialog.getByLabel('Link URL').fill('https://grace.example/easter');
    // An image by upload (the uploads service), with its preview.
    await segment(dialog, 'Upload').click();
    await dialog.locator('input[type="file"]').setInputFiles({
      name: 'eggs.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG, 'base64'),
    });
    await dialog.getByRole('img', { name: 'Image file preview' }).waitFor();
    await dialog.getByRole('button', { name: 'Schedule Post' }).click();
    await seeToast(page, 'Post scheduled successfully');
    await dialog.waitFor({ state: 'detached' });

    // In the cell of its day: the first two platform icons then +1, and the first 20 characters.
    const tenthCell = cell(page, tenth.cell);
    const chip = tenthCell.getByRole('button', {
      name: 'Easter egg hunt afte… at 9:00 AM, Scheduled, on Facebook, Instagram, X (Twitter)',
    });
    await chip.waitFor();
    await tenthCell.getByText('+1').waitFor();

    // Edit it: clicking the post opens 'Edit Social Post'; any status can be set.
    await chip.click();
    const edit = page.getByRole('dialog', { name: 'Edit Social Post' });
    await edit.waitFor();
    await edit.getByRole('img', { name: 'Image file preview' }).waitFor();
    await expectAccessible(page);
    const saved = (await church.client.get('/api/social-posts')).body as { content: string; imageUrl: string }[];
    expect(saved.find((p) => p.content.startsWith('Easter egg hunt'))?.imageUrl).toMatch(/^\/uploads\//);
    await edit.getByLabel('Post Content').fill('Egg hunt moved indoors: bring a basket');
    await edit.getByLabel('Status', { exact: true }).click();
    await page.getByRole('option', { name: 'Draft' }).click();
    await edit.getByRole('button', { name: 'Update Post' }).click();
    await seeToast(page, 'Post updated successfully');
    await tenthCell.getByRole('button', { name: /^Egg hunt moved indoo… at 9:00 AM, Draft, on / }).waitFor();

    // Move it to the 12th.
    await tenthCell.getByRole('button', { name: 'Edit post: Egg hunt moved indoo…' }).click();
    await edit.waitFor();
    await edit.getByLabel('Schedule Date').click();
    await page.getByRole('button', { name: twelfth.picker, exact: true }).click();
    await edit.getByLabel('Time').fill('18:30');
    await edit.getByRole('button', { name: 'Update Post' }).click();
    await seeToast(page, 'Post updated successfully');
    const twelfthCell = cell(page, twelfth.cell);
    await twelfthCell.getByRole('button', { name: /^Egg hunt moved indoo… at 6:30 PM, Draft, on / }).waitFor();
    expect(await tenthCell.getByRole('button', { name: /^Egg hunt/ }).count()).toBe(0);

    // And back to the 10th by dragging it (same time of day).
    await twelfthCell.getByRole('button', { name: /^Egg hunt moved indoo/ }).dragTo(tenthCell);
    await tenthCell.getByRole('button', { name: /^Egg hunt moved indoo… at 6:30 PM, Draft, on / }).waitFor();
    await tenthCell.getByRole('button', { name: /^Egg hunt moved indoo/ }).dragTo(twelfthCell);
    await twelfthCell.getByRole('button', { name: /^Egg hunt moved indoo… at 6:30 PM, Draft, on / }).waitFor();

    // A second post, to see the views and the phone layout with more than one.
    await page.getByRole('button', { name: `Add post on ${twelfth.short}` }).click();
    const second = page.getByRole('dialog', { name: 'Schedule New Social Post' });
    await second.getByLabel('Post Content').fill('Youth night this Friday at 7pm');
    await second.getByRole('checkbox', { name: 'LinkedIn' }).check();
    await second.getByRole('button', { name: 'Schedule Post' }).click();
    await seeToast(page, 'Post scheduled successfully');
    await twelfthCell
      .getByRole('button', { name: 'Youth night this Fri… at 9:00 AM, Scheduled, on Facebook, LinkedIn' })
      .waitFor();

    for (const width of [1366, 1024, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await twelfthCell.getByRole('button', { name: /^Youth night/ }).waitFor();
      await screenshot(page, `social-month-${width}`);
    }
    // On a phone the month is a list of its days: each with an add button, the posts under their
    // day, no drop-target outlines, and a day without posts one short line.
    const days = page.getByRole('list', { name: 'Days' }).getByRole('listitem');
    const now = new Date();
    // The list replaces the grid after the resize: wait for it (count() answers at once).
    await expect.poll(() => days.count()).toBe(new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate());
    await twelfthCell.getByRole('button', { name: `Add post on ${twelfth.short}` }).waitFor();
    const look = await days.evaluateAll((items) =>
      items.map((li) => ({
        dashed: [li, ...Array.from(li.querySelectorAll('*'))].some(
          (e) => getComputedStyle(e).outlineStyle === 'dashed',
        ),
        posts: li.querySelectorAll('[data-testid^="post-"]').length,
        height: li.getBoundingClientRect().height,
      })),
    );
    expect(look.filter((d) => d.dashed)).toEqual([]);
    expect(Math.max(...look.filter((d) => d.posts === 0).map((d) => d.height))).toBeLessThan(48);
    await expectAccessible(page);
    // The dialog on a phone.
    await page.getByRole('button', { name: 'Create New Post' }).click();
    const phoneDialog = page.getByRole('dialog', { name: 'Schedule New Social Post' });
    await phoneDialog.getByLabel('Post Content').fill('x'.repeat(300));
    await phoneDialog.getByRole('checkbox', { name: 'X (Twitter)' }).check();
    await phoneDialog.getByText('Too long for X (Twitter)').waitFor();
    await screenshot(page, 'social-dialog-390', { fullPage: false });
    // Typed work is not thrown away silently.
    await phoneDialog.getByRole('button', { name: 'Close' }).click();
    await page.getByText('This post has changes that are not saved.').waitFor();
    await page.getByRole('button', { name: 'Discard' }).click();
    await phoneDialog.waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1366, height: 900 });

    await segment(page, 'Week').click();
    await page.getByRole('button', { name: 'Next week' }).waitFor();
    await screenshot(page, 'social-week-1366');
    await segment(page, 'Next 30 days').click();
    await page.getByRole('heading', { name: 'Next 30 days' }).waitFor();
    await page.getByText('Prayer breakfast tomorrow, 10am in the hall').waitFor();
    await screenshot(page, 'social-list-1366');
    await segment(page, 'Month').click();

    // Delete it, after the spec's question.
    await twelfthCell.getByRole('button', { name: 'Delete post: Egg hunt moved indoo…' }).click();
    await page.getByText('Are you sure you want to delete this post?').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Post deleted successfully').waitFor();
    await twelfthCell.getByRole('button', { name: /^Egg hunt/ }).waitFor({ state: 'detached' });
    await twelfthCell.getByRole('button', { name: /^Youth night/ }).waitFor();
    await context.close();
  }, 150_000);

  it('Settings → Social: the webhook, its secret shown once, the feed address; a failed post shows why', async () => {
    const { page, context } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page
      .getByText(/^Welcome( back)?, Grace Church!$/)
      .first()
      .waitFor();
    await openInApp(page, '/settings/social');
    await page.getByRole('heading', { name: 'Social' }).waitFor();
    const feed = await page.getByLabel('Calendar feed (iCalendar)').inputValue();
    expect(feed).toMatch(/\/api\/social-posts\.ics\?token=[A-Za-z0-9_-]{43}$/);
    await page.getByLabel('Publishing webhook URL').fill('https://hooks.example.org/lampstand');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByText('Copy your signing secret now').waitFor();
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toMatch(/^[0-9a-f]{64}$/);
    await expectAccessible(page);
    await screenshot(page, 'social-settings-1366');

    // With a webhook set, the calendar no longer warns. A post that failed shows why.
    const failed = (
      await church.client.post('/api/social-posts', {
        content: 'Harvest supper on Saturday',
        scheduledFor: new Date(new Date().setHours(12, 0, 0, 0)).toISOString(),
        platforms: ['facebook'],
        status: 'draft',
      })
    ).body;
    await e2e.app.db
      .updateTable('socialPosts')
      .set({ status: 'failed', publishError: 'Webhook answered 500 Internal Server Error' })
      .where('id', '=', failed.id)
      .execute();
    await page.goto('/social-blast');
    await page.getByRole('heading', { name: 'Social Blast' }).waitFor();
    await page
      .getByRole('button', { name: /^Harvest supper on Sa… at .*\. Failed: Webhook answered 500/ })
      .first()
      .waitFor();
    expect(await page.getByText('Posts will not publish until a webhook is set in').count()).toBe(0);
    await segment(page, 'Next 30 days').click();
    await page.getByText('Failed: Webhook answered 500 Internal Server Error').waitFor();
    await page.getByRole('button', { name: 'Edit post: Harvest supper on Sa…' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Social Post' });
    await edit.getByRole('alert', { name: 'Publishing failed' }).getByText('Webhook answered 500').waitFor();
    await context.close();
  }, 60_000);
});
