import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { getChurchSettings } from '../settings/church-settings.js';
import { formatFrom } from './deliver.js';
import { renderEmail } from './render.js';
import { sanitizeEmailHtml } from './sanitize.js';

/** Really send the campaign as it stands to one address, merge tags filled from a sample contact. */
export async function sendTestEmail(
  deps: { db: Db; email: EmailTransport; config: DeliveryConfig },
  tenantId: number,
  input: { testEmail: string; subject: string; content: string },
): Promise<{ ok: true; to: string; message: string }> {
  const settings = await getChurchSettings(deps.db, tenantId);
  const sample = await deps.db
    .selectFrom('contacts')
    .select(['firstName', 'lastName'])
    .where('userId', '=', tenantId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const message = renderEmail({
    subject: `[Test] ${input.subject || '(no subject)'}`,
    html: sanitizeEmailHtml(input.content),
    churchName: settings.churchName,
    postalAddress: settings.postalAddress,
    recipient: sample ?? { firstName: 'Friend', lastName: '' },
    publicUrl: deps.config.publicUrl,
  });
  const host = new URL(deps.config.publicUrl).hostname || 'lampstand.local';
  await deps.email.send({
    from: formatFrom(settings.churchName, deps.config.emailFrom),
    to: input.testEmail,
    ...message,
    messageId: `test-${crypto.randomUUID()}@${host}`,
    meta: { userId: tenantId },
  });
  return { ok: true, to: input.testEmail, message: deps.email.kind === 'outbox' ? 'Saved to your outbox (no SMTP server is configured)' : 'Sent' };
}
