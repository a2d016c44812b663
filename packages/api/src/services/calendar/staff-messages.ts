import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import { escapeHtml } from '../../render/html.js';
import type { MessageRegistrantsInput } from '../../schemas/calendar-registrations.js';
import { takeDailyAllowance } from '../delivery/daily-limit.js';
import { wakeRegistrationMessages, type CalendarDeps } from './deps.js';
import { registrantAddresses } from './registrations.js';

// Staff message an event's registrants by email and text. Each recipient is a delivery of kind
// 'registration' (notice 'message') of the one engine, so its contact rule decides each send:
// a message about the event a person registered for is transactional (docs/calendar-events.md).

/** Queue the message to the event's registrants (active ones by default, or one status, one time). */
export async function messageRegistrants(
  deps: Pick<CalendarDeps, 'db' | 'jobs'>,
  tenantId: number,
  input: MessageRegistrantsInput,
  staff: { staffId: number | null },
) {
  const result = await deps.db.transaction().execute(async (trx) => {
    const regs = await registrantAddresses(trx, tenantId, input);
    const message = await trx
      .insertInto('calendarMessages')
      .values({
        userId: tenantId,
        eventId: input.id,
        subject: input.subject ?? '',
        body: input.body,
        channels: input.channels,
        sentBy: staff.staffId,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = regs.flatMap((r) =>
      input.channels.flatMap((channel) => {
        const address = channel === 'email' ? r.email : r.phoneE164;
        if (!address) return [];
        return [
          {
            userId: tenantId,
            kind: 'registration' as const,
            channel,
            address,
            contactId: r.contactId,
            firstName: r.name.split(' ')[0] ?? '',
            token: crypto.randomBytes(24).toString('hex'),
            registrationId: r.id,
            registrationNotice: 'message' as const,
            calendarMessageId: message.id,
          },
        ];
      }),
    );
    const emails = rows.filter((r) => r.channel === 'email').length;
    const texts = rows.length - emails;
    for (const [channel, n] of [
      ['email', emails],
      ['sms', texts],
    ] as const)
      if (n > 0)
        await takeDailyAllowance(trx, tenantId, { channel, kind: 'registration', campaignId: null, recipients: n });
    if (rows.length > 0) await trx.insertInto('deliveries').values(rows).execute();
    await trx
      .updateTable('calendarMessages')
      .set({ emailCount: emails, smsCount: texts })
      .where('id', '=', message.id)
      .execute();
    return { messageId: message.id, registrations: regs.length, emails, texts };
  });
  if (result.emails + result.texts > 0) await wakeRegistrationMessages(deps, tenantId);
  return result;
}

export interface StaffMessage {
  subject: string;
  body: string;
  title: string;
}

/** What a 'message' delivery says: the staff's words and the event's title. */
export async function staffMessageOf(db: Db, messageId: number): Promise<StaffMessage | null> {
  const m = await db
    .selectFrom('calendarMessages as m')
    .innerJoin('calendarEvents as e', 'e.id', 'm.eventId')
    .select(['m.subject', 'm.body', 'e.title'])
    .where('m.id', '=', messageId)
    .executeTakeFirst();
  return m ?? null;
}

/** The email of a staff message: their text, paragraphs kept, signed by the church. */
export function staffMessageEmail(m: StaffMessage, churchName: string) {
  const paragraphs = m.body.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  const about = `About your registration for ${m.title}.`;
  return {
    subject: m.subject || m.title,
    html: `<!doctype html><html><body style="font-family:Arial,sans-serif;line-height:1.5">${paragraphs.join(
      '',
    )}<p>${escapeHtml(churchName)}</p><p style="color:#666;font-size:12px">${escapeHtml(about)}</p></body></html>`,
    text: `${m.body}\n\n${churchName}\n\n${about}\n`,
  };
}

/** The text of a staff message: the church's name first, so the person knows who writes. */
export const staffMessageText = (m: StaffMessage, churchName: string) => `${churchName}: ${m.body}`;
