import { readAmount, type Read } from './values.js';

/**
 * A gift split between funds in one cell, as Breeze's contributions export writes its "Fund(s)"
 * column: each fund followed by its share in brackets, the funds separated by commas —
 * 'General (50.00), Missions (25.00)', 'Building (1,250.00), General ($50.00)', and for a refund
 * 'General (-50.00), Missions (-25.00)'. Commas inside the brackets are thousands separators.
 */

export interface FundLine {
  fund: string;
  amountCents: number;
}

/** The cell's parts at the commas outside brackets. */
function splitOutsideBrackets(cell: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < cell.length; i++) {
    const c = cell[i];
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      parts.push(cell.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(cell.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** 'Name (amount)', the amount itself possibly bracketed for a refund: 'Name ((50.00))'. */
const PART = /^(.*?\S)\s*\(((?:[^()]|\([^()]*\))*)\)$/;

/**
 * The lines of a fund cell, or null when the cell is a plain fund name (no bracketed amount after
 * it). `rowCents`, the row's own amount: a single 'Youth (2024)' that is not the row's amount is a
 * fund's name, not a split. A share that cannot be read, or shares that do not all have the same
 * sign, are a reason naming the fund.
 */
export function readFundLines(cell: string, rowCents: number | null): Read<FundLine[]> | null {
  const parts: string[] = [];
  // A fund whose name has a comma ('Missions, Local (25.00)'): the part without an amount joins the next.
  let pending = '';
  for (const part of splitOutsideBrackets(cell)) {
    const joined = pending ? `${pending}, ${part}` : part;
    if (PART.test(joined)) {
      parts.push(joined);
      pending = '';
    } else pending = joined;
  }
  if (pending || !parts.length) return null;
  const lines: FundLine[] = [];
  for (const part of parts) {
    const [, fund, raw] = PART.exec(part)!;
    const amount = readAmount(raw!);
    if (!amount.ok) {
      // One unreadable part of a single-fund cell is the fund's name ('Youth (2024 camp)').
      if (parts.length === 1 && /is not an amount/.test(amount.reason)) return null;
      return { ok: false, reason: `${fund!.replace(/\s+/g, ' ')}: ${amount.reason}` };
    }
    const name = fund!.replace(/\s+/g, ' ');
    const same = lines.find((l) => l.fund.toLowerCase() === name.toLowerCase());
    if (same) same.amountCents += amount.value;
    else lines.push({ fund: name, amountCents: amount.value });
  }
  if (lines.length === 1 && rowCents !== null && lines[0]!.amountCents !== rowCents) return null;
  if (lines.some((l) => l.amountCents < 0) && lines.some((l) => l.amountCents > 0)) {
    return { ok: false, reason: 'A gift’s funds are either all given or all refunded: some amounts here are negative' };
  }
  return { ok: true, value: lines };
}
