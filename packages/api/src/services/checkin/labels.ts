import type { Db } from '@lampstand/db';
import { notFound } from '../../errors.js';
import { renderPdf } from '../../render/pdf.js';
import { logNoteReads } from './roster.js';
import { churchToday, type CheckinScope } from './scope.js';

/**
 * Labels of a family's check-in (one security code): a name tag per child (name, room, an allergy
 * or medical mark with its note, the code, the date) and one pickup tag for the parent (the
 * children's names and the same code). As ZPL for a Zebra-compatible printer (203 dpi), or as a PDF
 * of label-sized pages through the one PDF helper.
 */
export type LabelSize = '2.25x1.25' | '4x2';
const DOTS: Record<LabelSize, [number, number]> = { '2.25x1.25': [457, 254], '4x2': [812, 406] };
const POINTS: Record<LabelSize, [number, number]> = { '2.25x1.25': [162, 90], '4x2': [288, 144] };

export interface ChildTag {
  name: string;
  room: string;
  /** Allergies and medical notes in one line; null when there are none. */
  care: string | null;
  code: string;
  date: string;
}
export interface PickupTag {
  children: string[];
  code: string;
  date: string;
}

/** Text for a ZPL field: its control characters (^ and ~) and line breaks out. */
const field = (s: string) => s.replace(/[\^~\r\n]/g, ' ');

export function childTagZpl(t: ChildTag, size: LabelSize = '2.25x1.25'): string {
  const [w, h] = DOTS[size];
  const k = w / 457;
  const at = (x: number, y: number) => `^FO${Math.round(x * k)},${Math.round(y * k)}`;
  const font = (n: number) => `^A0N,${Math.round(n * k)},${Math.round(n * k)}`;
  return [
    `^XA^CI28^PW${w}^LL${h}`,
    `${at(16, 12)}${font(48)}^FB${w - 32},1,0,L^FD${field(t.name)}^FS`,
    `${at(16, 66)}${font(28)}^FD${field(t.room)}^FS`,
    ...(t.care
      ? [`${at(16, 100)}^GB${Math.round(34 * k)},${Math.round(34 * k)},3^FS`, `${at(26, 104)}${font(30)}^FD!^FS`]
      : []),
    ...(t.care ? [`${at(58, 106)}${font(22)}^FB${Math.round(380 * k)},2,0,L^FD${field(t.care)}^FS`] : []),
    `${at(16, 200)}${font(24)}^FD${field(t.date)}^FS`,
    `${at(290, 176)}${font(64)}^FD${field(t.code)}^FS`,
    '^XZ',
  ].join('\n');
}

export function pickupTagZpl(t: PickupTag, size: LabelSize = '2.25x1.25'): string {
  const [w, h] = DOTS[size];
  const k = w / 457;
  const at = (x: number, y: number) => `^FO${Math.round(x * k)},${Math.round(y * k)}`;
  const font = (n: number) => `^A0N,${Math.round(n * k)},${Math.round(n * k)}`;
  return [
    `^XA^CI28^PW${w}^LL${h}`,
    `${at(16, 12)}${font(26)}^FDPICKUP TAG^FS`,
    `${at(16, 46)}${font(28)}^FB${w - 32},3,0,L^FD${field(t.children.join(', '))}^FS`,
    `${at(16, 200)}${font(24)}^FD${field(t.date)}^FS`,
    `${at(290, 176)}${font(64)}^FD${field(t.code)}^FS`,
    '^XZ',
  ].join('\n');
}

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

export function labelsZpl(tags: { children: ChildTag[]; pickup: PickupTag }, size: LabelSize): string {
  return [...tags.children.map((t) => childTagZpl(t, size)), pickupTagZpl(tags.pickup, size)].join('\n');
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
