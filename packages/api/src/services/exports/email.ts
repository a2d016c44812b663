import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { EmailTransport } from '../../providers/email.js';
import type { DeliveryConfig } from '../delivery/config.js';
import { escapeHtml } from '../../render/html.js';
import { EXPORT_LINK_HOURS } from '../../schemas/exports.js';
import { DIRECT_SEND_RULES, mayContact } from '../delivery/contact-rule.js';
import { exportDownloadPath } from './exports.js';

export const EXPORT_EMAIL_SUBJECT = 'Your Lampstand export is ready';

/** The emailed link: the download address with the export's token. */
export const exportLink = (publicUrl: string, id: number, token: string) =>
  `${publicUrl}${exportDownloadPath(id)}?token=${encodeURIComponent(token)}`;

/**
 * Email the staff login that asked for the export its download link, as the account's own mail
 * (the verification link's path: from the platform, not a church campaign). An address on the
 * church's suppression list gets nothing; the link is also on Settings → Export everything.
 */
export async function sendExportReadyEmail(
  deps: { db: Db; email: EmailTransport; config: Pick<DeliveryConfig, 'publicUrl' | 'emailFrom'> },
  input: { tenantId: number; exportId: number; requestedBy: number; token: string },
): Promise<void> {
  const to = await deps.db.selectFrom('users').select(['email']).where('id', '=', input.requestedBy).executeTakeFirst();
  const church = await deps.db
    .selectFrom('users')
    .select(['churchName'])
    .where('id', '=', input.tenantId)
    .executeTakeFirstOrThrow();
  if (!to) return;
  const rule = { channel: 'email' as const, address: to.email, ...DIRECT_SEND_RULES['staff-account'] };
  if (!(await mayContact(deps.db, input.tenantId, rule))) return;
  const link = exportLink(deps.config.publicUrl, input.exportId, input.token);
  const host = new URL(deps.config.publicUrl).hostname || 'lampstand.local';
  const address = /<([^>]+)>/.exec(deps.config.emailFrom)?.[1] ?? deps.config.emailFrom;
  await deps.email.send({
    from: `"Lampstand" <${address}>`,
    to: to.email,
    subject: EXPORT_EMAIL_SUBJECT,
    text:
      `Everything ${church.churchName} keeps in Lampstand is ready to download as one ZIP file:\n${link}\n\n` +
      `The link works for ${EXPORT_LINK_HOURS} hours. The README.md inside describes each file.\n` +
      'Keep the file safe: it holds the personal details of your people.',
    html:
      `<p>Everything ${escapeHtml(church.churchName)} keeps in Lampstand is ready to download as one ZIP file.</p>` +
      `<p><a href="${escapeHtml(link)}">Download the export</a></p>` +
      `<p>The link works for ${EXPORT_LINK_HOURS} hours. The README.md inside describes each file. ` +
      'Keep the file safe: it holds the personal details of your people.</p>',
    headers: {},
    messageId: `export-${crypto.randomUUID()}@${host}`,
    meta: { userId: input.tenantId },
  });
}
