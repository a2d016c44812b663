import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import { escapeHtml } from '../../render/html.js';
import type { FailingEndpoint } from './sender.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';

export const ENDPOINT_OFF_SUBJECT = 'A webhook endpoint was turned off';

/**
 * Tells a church that an endpoint was turned off after 3 days of failures: transactional mail from
 * the platform to the account's address, as the verification email is (not a church campaign,
 * so no allowance applies), through the same transport (SMTP, or the local outbox).
 */
export async function sendEndpointOffNotice(
  deps: { db: Db; email: EmailTransport; emailFrom: string; publicUrl: string },
  endpoint: FailingEndpoint,
): Promise<void> {
  const user = await deps.db
    .selectFrom('users')
    .select(['email', 'churchName'])
    .where('id', '=', endpoint.userId)
    .executeTakeFirst();
  if (!user) return;
  const rule = { channel: 'email' as const, address: user.email, ...DIRECT_SEND_RULES['staff-account'] };
  if (!(await mayContact(deps.db, endpoint.userId, rule))) return;
  const link = `${deps.publicUrl}/settings#integrations`;
  const text =
    `Deliveries to your webhook endpoint ${endpoint.url} have failed for 3 days, so Lampstand turned it off.\n\n` +
    `Its delivery log shows the answers it gave. Once it works again, turn it back on in Settings → Integrations:\n${link}\n\n` +
    'Events recorded while it is off can be read from GET /api/events.';
  await deps.email.send({
    from: deps.emailFrom,
    to: user.email,
    subject: ENDPOINT_OFF_SUBJECT,
    text,
    html:
      `<p>Deliveries to your webhook endpoint <b>${escapeHtml(endpoint.url)}</b> have failed for 3 days, so Lampstand turned it off.</p>` +
      `<p>Its delivery log shows the answers it gave. Once it works again, turn it back on in ` +
      `<a href="${escapeHtml(link)}">Settings → Integrations</a>.</p>` +
      '<p>Events recorded while it is off can be read from GET /api/events.</p>',
    headers: {},
    messageId: `webhook-off-${endpoint.id}-${crypto.randomBytes(6).toString('hex')}@lampstand`,
    meta: { userId: endpoint.userId },
  });
}
