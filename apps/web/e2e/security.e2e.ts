import { describe, expect, it } from 'vitest';
import { browserDescribe, registerViaUi, startE2E, uniqueName } from './helpers';

// The app runs under the server's Content-Security-Policy and CSRF check: no violation reported
// by the browser on the main screens, and signing out (a cookie-authenticated POST) works.
browserDescribe(describe)('security headers and CSRF in the browser', async () => {
  const e2e = await startE2E();

  it('no CSP violation on the main screens; logout works under the CSRF check', async () => {
    const { page, context } = await e2e.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`Refused to load: CSP ${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    const username = uniqueName('csp');
    await page.goto('/');
    await registerViaUi(page, {
      church: 'Grace Community Church',
      username,
      password: 'correct-horse',
      email: `${username}@example.org`,
    });
    for (const [path, heading] of [
      ['/contacts', 'Contacts'],
      ['/email-campaigns', /Email Campaigns/],
      ['/templates', /Templates/],
    ] as const) {
      await page.goto(path);
      await page.getByRole('heading', { name: heading }).first().waitFor();
    }
    const res = await page.request.get('/');
    expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");

    // Logout goes through tRPC as JSON with the app's Origin: accepted.
    const out = await page.evaluate(async () => {
      const r = await fetch('/trpc/auth.logout', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      return r.status;
    });
    expect(out).toBe(200);
    // zod probes `new Function` once to choose its parser and falls back when CSP forbids eval.
    expect(violations.filter((v) => !/script-src eval/.test(v))).toEqual([]);
    await context.close();
  });
});
