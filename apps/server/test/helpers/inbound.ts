import { processInboundTexts } from '@lampstand/api/server';
import type { TestApp } from './test-app.js';

/**
 * Runs the 'sms-inbound-process' job here until every stored incoming text is processed (the
 * app's own worker may be taking some at the same time: their rows are skipped here, and waited for).
 */
export async function processInbound(app: Pick<TestApp, 'db' | 'deps'>): Promise<void> {
  for (;;) {
    await processInboundTexts({ db: app.db, jobs: app.deps.jobs }, app.deps.delivery.smsFromNumber);
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
