import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { startStandardReceiver } from '@lampstand/server/testing/webhook-receiver';
import { browserDescribe, expectAccessible, openInApp, screenshot, signIn, startE2E, toast } from './helpers';

// Settings → Integrations: add an endpoint (its secret shown once), send a test
// event, see it in the delivery log, redeliver it. The receiver on loopback checks signatures.
browserDescribe(describe)('Webhooks', async () => {
  const receiver = await startStandardReceiver();
  const e2e = await startE2E({ webhookReach: 'loopback' });
  afterAll(() => receiver.close());
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('adds an endpoint, sends a test event, shows it in the log and redelivers it', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page
      .getByText(/^Welcome( back)?, Grace Church!$/)
      .first()
      .waitFor();
    await openInApp(page, '/settings/webhooks');
    await page.getByRole('heading', { name: 'Integrations' }).waitFor();
    await page.getByText('No webhook endpoints yet.').waitFor();

    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill('not a url');
    await dialog.getByRole('switch', { name: 'Send every event type' }).click({ force: true });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('Please enter a valid webhook URL').waitFor();
    await dialog.getByText('Choose at least one event type, or all of them').waitFor();
    // Every event type in sight as a checkbox (no list scrolling inside the dialog), at each width.
    await dialog.getByRole('checkbox', { name: 'A contact was added' }).check();
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await expectAccessible(page);
      await screenshot(page, `webhook-event-types-${width}`, { fullPage: false });
    }
    await dialog.getByRole('switch', { name: 'Send every event type' }).click({ force: true });
    await dialog.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
    await dialog.getByRole('textbox', { name: 'Description' }).fill('CRM sync');
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await toast(page, 'Endpoint added').waitFor();
    const secret = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.trust(secret);
    await page.getByRole('cell', { name: `${receiver.url} CRM sync` }).waitFor();
    await page.getByText('All events').waitFor();
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Integrations' }).scrollIntoViewIfNeeded();
      await screenshot(page, `webhooks-${width}`);
    }

    await page.getByRole('button', { name: `Delivery log of ${receiver.url}` }).click();
    const log = page.getByRole('dialog', { name: `Delivery log: ${receiver.url}` });
    await log.getByText('No deliveries yet.').waitFor();
    await log.getByRole('button', { name: 'Send test event' }).click();
    await toast(page, 'Test event sent').waitFor();
    await log.getByText(/^Delivered$/).waitFor();
    await log.getByRole('cell', { name: /^200 / }).waitFor();
    await log.getByRole('cell', { name: /^A test event/ }).waitFor();
    expect(receiver.accepted).toHaveLength(1);
    expect(receiver.accepted[0]!.body.type).toBe('webhook.test');
    await expectAccessible(page);
    await screenshot(page, 'webhooks-log-1366');

    await log.getByRole('button', { name: /^Redeliver a test event/ }).click();
    await toast(page, 'Redelivery queued').waitFor();
    await log.getByRole('cell', { name: '2', exact: true }).waitFor();
    await receiver.arrived(2);
    expect(receiver.all[1]!.id).toBe(receiver.all[0]!.id);
    expect(receiver.badSignatures).toBe(0);
    await page.setViewportSize({ width: 390, height: 900 });
    await expectAccessible(page);
    await screenshot(page, 'webhooks-log-390');
  });
});
