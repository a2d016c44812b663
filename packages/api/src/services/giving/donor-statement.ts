import { sql, type Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { renderStatement } from './statement-pdf.js';
import { churchToday } from './giving-church.js';
import { addressText, churchOf, donorsInRange, statementLines } from './statements-build.js';

/**
 * One donor's giving statement for staff (the contact's Giving tab): the same lines, totals and
 * PDF as a statement run makes, for the dates asked (this calendar year in the church's time zone
 * when none are), made on the spot and not stored or sent. Another church's contact is a 404.
 */
export async function staffDonorStatement(
  db: Db,
  tenantId: number,
  asked: { contactId: number; from?: string; to?: string },
  now = new Date(),
): Promise<{ fileName: string; contentType: 'application/pdf'; base64: string }> {
  const church = await churchOf(db, tenantId);
  const year = (await churchToday(db, tenantId, now)).slice(0, 4);
  const input = { contactId: asked.contactId, from: asked.from ?? `${year}-01-01`, to: asked.to ?? `${year}-12-31` };
  const newest = sql.ref('d.newest');
  const meta = sql.ref('c.metadata');
  const { rows } = await sql<{ name: string; address: string | null; totalCents: string | null }>`
    select coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), c.email, 'Donor') as name,
           coalesce(${addressText(newest, { line1: 'line1', line2: 'line2' })}, ${addressText(meta, { line1: 'address' })}) as address,
           d.total_cents
    from contacts c
    left join (${donorsInRange(tenantId, church.timeZone, input)}) d on d.contact_id = c.id
    where c.id = ${input.contactId} and c.user_id = ${tenantId}`.execute(db);
  const donor = rows[0];
  if (!donor) throw notFound('Contact not found');
  const lines =
    (
      await statementLines(db, tenantId, { fromDate: input.from, toDate: input.to }, church.timeZone, [input.contactId])
    ).get(input.contactId) ?? [];
  const pdf = await renderStatement({
    church,
    donor: { name: donor.name, address: donor.address },
    from: input.from,
    to: input.to,
    lines,
    totalCents: Number(donor.totalCents ?? 0),
  });
  const slug =
    donor.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'donor';
  return {
    fileName: `giving-statement-${slug}-${input.from}-to-${input.to}.pdf`,
    contentType: 'application/pdf',
    base64: pdf.toString('base64'),
  };
}
