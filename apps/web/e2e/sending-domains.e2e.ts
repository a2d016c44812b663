import { afterAll, describe, expect, it } from 'vitest';
import { registerChurch } from '@lampstand/server/testing';
import { startLocalDns } from '@lampstand/server/testing/local-dns';
import {
  animationsDone,
  browserDescribe,
  expectAccessible,
  openInApp,
  screenshot,
  signIn,
  startE2E,
  toast,
} from './helpers';

// Settings → Email: a domain is added, its DNS records shown with copy buttons;
// Verify against a local DNS server says which record is missing, then verifies.
browserDescribe(describe)('Sending domains', async () => {
  const dns = await startLocalDns();
  afterAll(() => dns.close());
  const e2e = await startE2E({ dnsServer: dns.server, bounceDomain: 'bounces.lampstand.test' });
  await registerChurch(e2e.app.url, 'Platform');
  const church = await registerChurch(e2e.app.url, 'Grace Church');

  it('adds a domain, says which record is missing, and verifies it', async () => {
    const { page } = await e2e.newPage();
    await signIn(page, e2e.app.url, church.user.username, church.password);
    await page.getByRole('heading', { name: /^Welcome( back)?, Grace Church!$/ }).waitFor();
    await openInApp(page, '/settings/sending');
    await page.getByRole('heading', { name: 'Email', exact: true }).waitFor();
    const input = page.getByRole('textbox', { name: 'Domain', exact: true });
    await input.fill('not a domain');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('Enter a domain, e.g. gracechurch.org').waitFor();
    await expectAccessible(page);

    await input.fill('gracechurch.example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await toast(page, 'Domain added').waitFor();
    const section = page.getByRole('region', { name: 'Sending domain gracechurch.example' });
    await section.getByText('Not verified').waitFor();
    const records = (await church.client.get('/api/sending-domains')).body[0].records as {
      key: string;
      type: 'TXT' | 'CNAME';
      name: string;
      value: string;
    }[];
    const dkimValue = section.getByRole('textbox', { name: 'DKIM record value' });
    expect(await dkimValue.inputValue()).toBe(records.find((r) => r.key === 'dkim')!.value);
    await expect(section.getByRole('button', { name: 'Copy' }).count()).resolves.toBe(8);

    // Every record but SPF published: Verify names the missing one.
    for (const r of records) if (r.key !== 'spf') dns.set(r.name, r.type, [r.value]);
    await section.getByRole('button', { name: 'Verify' }).click();
    await toast(page, 'Not verified yet').waitFor();
    // Still waiting for DNS: a yellow notice, not a green one.
    const notice = page.locator('.mantine-Notification-root').filter({ hasText: 'Not verified yet' });
    expect(await notice.getAttribute('style')).toContain('yellow');
    await section.getByText('No TXT record named gracechurch.example was found.').waitFor();
    await expectAccessible(page);
    for (const width of [390, 1024, 1366]) {
      await page.setViewportSize({ width, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await animationsDone(page);
      await screenshot(page, `sending-domain-${width}`);
    }

    const spf = records.find((r) => r.key === 'spf')!;
    dns.set(spf.name, spf.type, [spf.value]);
    await section.getByRole('button', { name: 'Verify' }).click();
    await toast(page, 'Domain verified').waitFor();
    await section.getByText('Verified', { exact: true }).waitFor();
    await section.getByText(/Your email is sent from no-reply@gracechurch\.example/).waitFor();
    await expectAccessible(page);
    expect((await church.client.get('/api/sending-domains')).body[0].status).toBe('verified');
  });
});
