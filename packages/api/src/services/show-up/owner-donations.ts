import type { Db } from '@lampstand/db';
import type { z } from 'zod';
import { type ownerDonationSchema, type ownerDonationsSchema } from '../../schemas/show-up.js';
import { toCents } from '../../shared/show-up.js';
import { toCsv } from '../../render/csv.js';
import { sourceLabels } from '../sources/labels.js';
import { ownedProject } from './projects.js';
import { projectGifts } from './project-gifts.js';

/** The owner's Donations tab: every gift to the project with its status and source, and the sum by source. */
export async function ownerDonations(
  db: Db,
  tenantId: number,
  { id }: { id: number },
): Promise<z.input<typeof ownerDonationsSchema>> {
  await ownedProject(db, tenantId, id);
  const rows = await projectGifts(db)
    .select(['g.id', 'g.createdAt', 'l.amountCents', 'g.donorName', 'g.donorEmail', 'g.isAnonymous', 'g.note'])
    .select(['g.status', 'g.failureReason', 'g.sourceKind', 'g.sourceId'])
    .where('p.id', '=', id)
    .where('g.userId', '=', tenantId)
    .orderBy('g.createdAt', 'desc')
    .orderBy('g.id', 'desc')
    .limit(5000)
    .execute();
  const refs = rows.flatMap((r) => (r.sourceKind && r.sourceId ? [{ kind: r.sourceKind, id: r.sourceId }] : []));
  const label = await sourceLabels(db, tenantId, refs);
  const donations: z.input<typeof ownerDonationSchema>[] = rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt,
    amount: r.amountCents / 100,
    donorName: r.isAnonymous || !r.donorName ? 'Anonymous' : r.donorName,
    donorEmail: r.isAnonymous ? null : r.donorEmail,
    isAnonymous: r.isAnonymous,
    message: r.note,
    status: r.status,
    failureReason: r.failureReason,
    source:
      r.sourceKind && r.sourceId
        ? { kind: r.sourceKind, id: r.sourceId, label: label(r.sourceKind, r.sourceId) }
        : null,
  }));
  const bySource = new Map<
    string,
    { source: z.input<typeof ownerDonationSchema>['source']; cents: number; count: number }
  >();
  let totalCents = 0;
  for (const d of donations) {
    if (d.status !== 'completed') continue;
    const key = d.source ? `${d.source.kind}.${d.source.id}` : 'direct';
    const entry = bySource.get(key) ?? { source: d.source, cents: 0, count: 0 };
    entry.cents += toCents(d.amount);
    entry.count += 1;
    totalCents += toCents(d.amount);
    bySource.set(key, entry);
  }
  const sources = [...bySource.values()]
    .sort((a, b) => b.cents - a.cents)
    .map((e) => ({ source: e.source, total: e.cents / 100, count: e.count }));
  return { donations, sources, totalCompleted: totalCents / 100 };
}

/** The Donations tab as CSV (dates as ISO 8601, text guarded against formulas by the CSV writer). */
export async function exportDonations(db: Db, tenantId: number, { id }: { id: number }) {
  const { donations } = await ownerDonations(db, tenantId, { id });
  const csv = toCsv([
    ['Date', 'Amount (USD)', 'Donor', 'Email', 'Status', 'Source', 'Message'],
    ...donations.map((d) => [
      new Date(d.createdAt),
      d.amount.toFixed(2),
      d.donorName,
      d.donorEmail,
      d.status,
      d.source?.label ?? 'Direct',
      d.message,
    ]),
  ]);
  return { fileName: `donations-project-${id}.csv`, csv };
}
