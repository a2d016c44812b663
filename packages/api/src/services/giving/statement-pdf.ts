import { formatCents, goodsServicesText } from '../../shared/giving.js';
import { formatDate, type Locale } from '../../shared/format.js';
import type { Pdf } from '../../render/pdf.js';

/**
 * The PDF helper (pdfkit, fontkit and their fonts: megabytes of code) is loaded by the first statement
 * drawn, not when the API starts: most processes never draw one.
 */
const pdf = () => import('../../render/pdf.js');

/** One line of a statement: a gift's part to one fund (or the card fee the donor covered). */
export interface StatementLine {
  date: string;
  fund: string;
  method: 'card' | 'cash' | 'check' | 'other';
  checkNumber: string | null;
  amountCents: number;
  /** The gift this line is part of, and the gift's whole amount (a gift may have several lines). */
  giftId: number;
  giftCents: number;
  /** What the donor received for the gift, if anything, and its value (whole cents). */
  goodsServices: string | null;
  goodsServicesCents: number | null;
}

export interface StatementData {
  /** 'Giving statement' unless told ('Gift receipt': one gift, from its lines). */
  title?: string;
  church: { name: string; address: string | null; taxId: string | null; locale?: string };
  donor: { name: string; address: string | null };
  from: string;
  to: string;
  lines: StatementLine[];
  totalCents: number;
}

export const NO_GOODS_SENTENCE = 'No goods or services were provided in exchange for these contributions.';

/**
 * The closing of a statement: the blanket sentence when no gift says what the donor received;
 * otherwise each such gift with what was received and its value (a quid pro quo disclosure), and
 * the sentence for the other gifts.
 */
export function goodsServicesClosing(lines: StatementLine[], o: Locale = {}): string[] {
  const seen = new Set<number>();
  const marked = lines.filter((l) => l.goodsServices && !seen.has(l.giftId) && seen.add(l.giftId));
  if (marked.length === 0) return [NO_GOODS_SENTENCE];
  return [
    'Goods or services were provided in exchange for some contributions (marked *):',
    ...marked.map(
      (l) =>
        `${formatStatementDate(l.date, o)}, gift of ${formatCents(l.giftCents)}: ${goodsServicesText(l.goodsServices!, l.goodsServicesCents)}`,
    ),
    'The deductible amount of such a gift is limited to the amount given above the value of the goods or services.',
    'No goods or services were provided in exchange for the other contributions.',
  ];
}

/** 'Jan 5, 2026' from '2026-01-05' ('5 Jan 2026' in an Australian church's locale). */
export function formatStatementDate(iso: string, o: Locale = {}): string {
  return formatDate(iso, o);
}

const METHOD_LABELS: Record<StatementLine['method'], string> = {
  card: 'Card',
  cash: 'Cash',
  check: 'Check',
  other: 'Other',
};

const PAGE_BOTTOM = 792 - 54;
const LEFT = 54;
const RIGHT = 612 - 54;
const COLUMNS = { date: LEFT, fund: LEFT + 100, method: LEFT + 330, amountRight: RIGHT };

/** Text at a point on one line (no wrapping: the cheap path of pdfkit). */
function put(doc: Pdf, text: string, x: number, y: number) {
  doc.text(text, x, y, { lineBreak: false });
}
function putRight(doc: Pdf, text: string, right: number, y: number) {
  doc.text(text, right - doc.widthOfString(text), y, { lineBreak: false });
}
function clip(doc: Pdf, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let t = text;
  while (t.length > 1 && doc.widthOfString(`${t}…`) > width) t = t.slice(0, -1);
  return `${t}…`;
}

/** One donor's statement, from the current page of `doc` on. */
export function drawStatement(doc: Pdf, s: StatementData): void {
  let y = 54;
  doc.font('Bold').fontSize(16);
  put(doc, s.church.name, LEFT, y);
  y += 22;
  doc.font('Regular').fontSize(10);
  for (const line of (s.church.address ?? '').split('\n').filter(Boolean)) {
    put(doc, line, LEFT, y);
    y += 13;
  }
  if (s.church.taxId) {
    put(doc, `Tax ID: ${s.church.taxId}`, LEFT, y);
    y += 13;
  }
  y += 18;
  doc.font('Bold').fontSize(14);
  put(doc, s.title ?? 'Giving statement', LEFT, y);
  y += 19;
  doc.font('Regular').fontSize(10);
  const o = { locale: s.church.locale };
  put(
    doc,
    s.from === s.to
      ? formatStatementDate(s.from, o)
      : `${formatStatementDate(s.from, o)} – ${formatStatementDate(s.to, o)}`,
    LEFT,
    y,
  );
  y += 26;
  doc.font('Bold').fontSize(11);
  put(doc, s.donor.name, LEFT, y);
  y += 15;
  doc.font('Regular').fontSize(10);
  for (const line of (s.donor.address ?? '').split('\n').filter(Boolean)) {
    put(doc, line, LEFT, y);
    y += 13;
  }
  y += 20;

  const header = () => {
    doc.font('Bold').fontSize(10);
    put(doc, 'Date', COLUMNS.date, y);
    put(doc, 'Fund', COLUMNS.fund, y);
    put(doc, 'Method', COLUMNS.method, y);
    putRight(doc, 'Amount', COLUMNS.amountRight, y);
    y += 15;
    doc
      .moveTo(LEFT, y - 3)
      .lineTo(RIGHT, y - 3)
      .lineWidth(0.5)
      .stroke('#9ca3af');
    doc.font('Regular');
  };
  header();
  for (const l of s.lines) {
    if (y > PAGE_BOTTOM - 60) {
      doc.addPage();
      y = 54;
      header();
    }
    put(doc, formatStatementDate(l.date, o), COLUMNS.date, y);
    put(doc, clip(doc, `${l.fund}${l.goodsServices ? ' *' : ''}`, COLUMNS.method - COLUMNS.fund - 10), COLUMNS.fund, y);
    put(
      doc,
      l.method === 'check' && l.checkNumber ? `Check #${l.checkNumber}` : METHOD_LABELS[l.method],
      COLUMNS.method,
      y,
    );
    putRight(doc, formatCents(l.amountCents), COLUMNS.amountRight, y);
    y += 14;
  }
  doc
    .moveTo(LEFT, y + 1)
    .lineTo(RIGHT, y + 1)
    .lineWidth(0.5)
    .stroke('#9ca3af');
  y += 8;
  doc.font('Bold');
  put(doc, 'Total', COLUMNS.date, y);
  putRight(doc, formatCents(s.totalCents), COLUMNS.amountRight, y);
  doc.font('Regular');
  y += 30;
  for (const text of goodsServicesClosing(s.lines, o)) {
    if (y > PAGE_BOTTOM - 14) {
      doc.addPage();
      y = 54;
    }
    if (doc.widthOfString(text) <= RIGHT - LEFT) {
      put(doc, text, LEFT, y);
      y += 16;
    } else {
      doc.text(text, LEFT, y, { width: RIGHT - LEFT });
      y = doc.y + 4;
    }
  }
}

/** One donor's statement as a PDF. */
export async function renderStatement(s: StatementData): Promise<Buffer> {
  const { renderPdf } = await pdf();
  return renderPdf({ title: `${s.title ?? 'Giving statement'}: ${s.donor.name}`, author: s.church.name }, (doc) =>
    drawStatement(doc, s),
  );
}

/** Several donors' statements in one PDF to print, each starting on a new page, drawn as they come. */
export async function renderStatements(
  o: { title: string; author: string },
  statements: () => AsyncIterable<StatementData>,
): Promise<Buffer> {
  const { renderPdf } = await pdf();
  return renderPdf(o, async (doc) => {
    let first = true;
    for await (const s of statements()) {
      if (!first) doc.addPage();
      first = false;
      drawStatement(doc, s);
    }
  });
}
