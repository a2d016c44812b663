import { describe, expect, it } from 'vitest';
import { demoGift, HttpClient, registerChurch } from '@lampstand/server/testing';
import { browserDescribe, expectAccessible, shotsAtWidths, signIn, startE2E } from './helpers';

// A person's story: a visitor signs up from the lobby's QR code and gives to a
// project; staff open the contact's Activity tab and read both, in plain words, with links.
browserDescribe(describe)('Activity', async () => {
  const e2e = await startE2E();
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('shows a sign-up from a QR code and a gift on the contact, filterable by kind', async () => {
    const qr = await church.client.post('/api/qr-codes', { name: 'Lobby banner', url: 'https://example.org/easter' });
    expect(qr.status, qr.text).toBe(201);
    const page = await church.client.post('/api/landing-pages', {
      name: 'Easter at Grace',
      slug: 'easter-at-grace',
      published: true,
      content: { blocks: [{ id: 'form', type: 'signup', title: 'Join us', fields: [] }] },
    });
    expect(page.status, page.text).toBe(201);
    const project = await church.client.post('/api/show-up/projects', {
      title: 'New Roof',
      shortDescription: 'Fix the leaking church hall roof before winter.',
      description:
        'The church hall hosts the food bank and youth group every week; its roof leaks badly and needs new sheeting.',
      location: 'Springfield, IL',
      targetAmount: 5000,
      category: 'construction',
      organizationName: 'Grace Church',
      contactEmail: 'office@grace.example.org',
      startDate: '2026-11-01',
      endDate: '2027-03-01',
    });
    expect(project.status, project.text).toBe(201);

    // The visitor, on a phone, from the QR code.
    const visitorContext = await e2e.browser.newContext({
      baseURL: e2e.app.url,
      viewport: { width: 390, height: 844 },
    });
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/p/easter-at-grace?lsrc=qr.${qr.body.id}`);
    await visitor.getByLabel('Name').fill('Lydia Purple');
    await visitor.getByLabel('Email').fill('lydia@example.org');
    await visitor.getByRole('button', { name: 'Sign up' }).click();
    await visitor.getByText('Thank you! Please check your email').waitFor();
    await visitorContext.close();
    // …and gives $50 (demo payments: the same webhook handler as Stripe's).
    await demoGift(new HttpClient(e2e.app.url), {
      projectId: project.body.id,
      amount: 50,
      donorName: 'Lydia Purple',
      donorEmail: 'lydia@example.org',
    });

    const lydia = await e2e.app.db
      .selectFrom('contacts')
      .select('id')
      .where('userId', '=', church.user.id)
      .where('email', '=', 'lydia@example.org')
      .executeTakeFirstOrThrow();
    const { page: staff } = await e2e.newPage();
    await signIn(staff, e2e.app.url, church.user.username, church.password, {
      at: `/contacts/detail/${lydia.id}?tab=activity`,
    });
    await staff.getByRole('tab', { name: 'Activity', selected: true }).waitFor();
    const timeline = staff.getByLabel('Activity', { exact: true });
    await timeline.getByText('Gave $50.00 to').waitFor();
    await timeline.getByText(/Signed up on Easter at Grace — from the QR code Lobby banner/).waitFor();
    expect(await timeline.getByRole('link', { name: 'New Roof' }).getAttribute('href')).toBe(
      `/show-up/${project.body.id}`,
    );
    expect(await timeline.getByRole('link', { name: 'Easter at Grace' }).first().getAttribute('href')).toBe(
      `/landing-pages/${page.body.id}/stats`,
    );
    await expectAccessible(staff);
    await shotsAtWidths(staff, 'activity');

    // Only gifts.
    await staff.locator('label', { hasText: 'Gifts' }).click();
    expect(await staff.getByRole('checkbox', { name: 'Gifts' }).isChecked()).toBe(true);
    await timeline.getByText('Signed up on').waitFor({ state: 'detached' });
    await timeline.getByText('Gave $50.00 to').waitFor();
    await expectAccessible(staff);
  }, 120_000);
});
