import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { renderPdf } from '../../render/pdf.js';
import { logNoteReads } from './roster.js';
import { churchToday, type CheckinScope } from './scope.js';
import type { ChildTag, LabelSize, PickupTag } from '../../shared/checkin-labels.js';

/**
 * Labels of a family's check-in (one security code): the tags' contents read here (ZPL from them in
 * shared/checkin-labels.ts), and the same labels as a PDF of label-sized pages through the one PDF
 * helper.
 */
const POINTS: Record<LabelSize, [number, number]> = { '2.25x1.25': [162, 90], '4x2': [288, 144] };

/** The tags of today's check-in with this code (a station only today's; staff also any day's). */
export async function tagsFor(
  db: Db,
  scope: CheckinScope,
  code: string,
): Promise<{ children: ChildTag[]; pickup: PickupTag }> {
  const today = await churchToday(db, scope);
  const rows = await db
    .selectFrom('checkins as k')
    .innerJoin('checkinCodes as c', 'c.id', 'k.codeId')
    .innerJoin('contactChildren as ch', 'ch.id', 'k.childId')
    .innerJoin('checkinRooms as r', 'r.id', 'k.roomId')
    .select(['k.childId', 'ch.name', 'ch.allergies', 'ch.medicalNotes', 'r.name as room', 'c.code', 'k.day'])
    .where('k.userId', '=', scope.tenantId)
    .where('k.day', '=', today)
    .where('c.code', '=', code)
    .where('c.state', '=', 'active')
    .orderBy('k.id')
    .execute();
  if (rows.length === 0) throw notFound('No check-in today has that security code');
  await logNoteReads(
    db,
    scope,
    rows.filter((r) => r.medicalNotes).map((r) => ({ childId: r.childId, note: 'medical' as const })),
    'label',
  );
  const date = String(rows[0]!.day);
  return {
    children: rows.map((r) => ({
      name: r.name,
      room: r.room,
      care: [r.allergies && `Allergy: ${r.allergies}`, r.medicalNotes].filter(Boolean).join(' · ') || null,
      code: r.code,
      date,
    })),
    pickup: { children: rows.map((r) => r.name), code: rows[0]!.code, date },
  };
}

/** The same labels as a PDF, a page per label, sized for the label stock. */
export function labelsPdf(tags: { children: ChildTag[]; pickup: PickupTag }, size: LabelSize): Promise<Buffer> {
  const [w, h] = POINTS[size];
  const k = w / 162;
  return renderPdf({ title: `Labels ${tags.pickup.code}`, author: 'Lampstand', size: [w, h], margin: 6 * k }, (doc) => {
    const page = (first: boolean) => {
      if (!first) doc.addPage({ size: [w, h], margin: 6 * k });
    };
    tags.children.forEach((t, i) => {
      page(i === 0);
      doc
        .font('Bold')
        .fontSize(16 * k)
        .text(t.name, 6 * k, 6 * k, { width: w - 12 * k, lineBreak: false, ellipsis: true });
      doc
        .font('Regular')
        .fontSize(9 * k)
        .text(t.room, 6 * k, 26 * k, { lineBreak: false });
      if (t.care)
        doc
          .font('Bold')
          .fontSize(7 * k)
          .text(`(!) ${t.care}`, 6 * k, 39 * k, { width: w - 12 * k, height: 20 * k, ellipsis: true });
      doc
        .font('Regular')
        .fontSize(8 * k)
        .text(t.date, 6 * k, h - 16 * k, { lineBreak: false });
      doc
        .font('Bold')
        .fontSize(22 * k)
        .text(t.code, w - 70 * k, h - 30 * k, { lineBreak: false });
    });
    page(tags.children.length === 0);
    doc
      .font('Bold')
      .fontSize(9 * k)
      .text('PICKUP TAG', 6 * k, 6 * k, { lineBreak: false });
    doc
      .font('Regular')
      .fontSize(9 * k)
      .text(tags.pickup.children.join(', '), 6 * k, 20 * k, {
        width: w - 12 * k,
        height: 36 * k,
        ellipsis: true,
      });
    doc
      .font('Regular')
      .fontSize(8 * k)
      .text(tags.pickup.date, 6 * k, h - 16 * k, { lineBreak: false });
    doc
      .font('Bold')
      .fontSize(22 * k)
      .text(tags.pickup.code, w - 70 * k, h - 30 * k, { lineBreak: false });
  });
}
