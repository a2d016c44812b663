import { processInboundTexts, twilioSignature } from '@lampstand/api/server';
import type { TestApp } from './test-app.js';

/**
 * Runs the 'sms-inbound-process' job here until every stored incoming text is processed (the
 * app's own worker may be taking some at the same time: their rows are skipped here, and waited for).
 */
export async function processInbound(app: Pick<TestApp, 'db' | 'deps'>): Promise<void> {
  for (;;) {
    await processInboundTexts({ db: app.db, jobs: app.deps.jobs, sms: app.deps.sms }, app.deps.delivery.smsFromNumber);
    const waiting = await app.db
      .selectFrom('smsInboundMessages')
      .select('id')
      .where('processedAt', 'is', null)
      .limit(1)
      .execute();
    if (waiting.length === 0) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A Twilio webhook POSTed to the app as Twilio sends it: form-encoded, signed with `token` over PUBLIC_URL + path + params. */
export async function postAsTwilio(
  app: Pick<TestApp, 'url'>,
  o: { publicUrl: string; path: string; params: Record<string, string>; token: string },
): Promise<{ status: number; body: string }> {
  const res = await fetch(`${app.url}${o.path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(o.token, `${o.publicUrl}${o.path}`, o.params),
    },
    body: new URLSearchParams(o.params),
  });
  return { status: res.status, body: await res.text() };
}
