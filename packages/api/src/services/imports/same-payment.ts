import type { ImportProblem } from '../../schemas/imports.js';
import type { FundLine } from './fund-lines.js';
import type { GiftRow } from './read.js';

/**
 * Rows of one payment. An export may write a gift split between funds as one row per fund under the
 * same id (Planning Center's donations export repeats the Donation ID for each designation; a
 * Breeze file edited by hand can repeat a Payment ID): those rows are one gift with a line per fund.
 * Written as separate gifts, the second would share the first's ledger key and be dropped, and the
 * ledger would fall short of the file. Rows under one id that differ in donor or date are not one
 * payment: the later one is a problem naming its line and the id's column, and it is not imported.
 * The rows given are the file's own, read for this: a payment's first row is changed in place.
 */
export function joinPaymentRows(
  gifts: GiftRow[],
  idColumn: string | null,
): { gifts: GiftRow[]; problems: ImportProblem[] } {
  const byId = new Map<string, GiftRow>();
  const out: GiftRow[] = [];
  const problems: ImportProblem[] = [];
  const donor = (g: GiftRow) => g.personId ?? g.email?.toLowerCase() ?? g.donorName ?? '';
  for (let i = 0; i < gifts.length; i++) {
    const g = gifts[i]!;
    const first = g.externalId ? byId.get(g.externalId) : undefined;
    if (!g.externalId || !first) {
      // The payment's first row becomes the gift itself (its later rows are added to it), not a
      // copy: a 50,000-row file read once more would be 50,000 objects more at once.
      if (g.externalId) byId.set(g.externalId, g);
      out.push(g);
      continue;
    }
    if (donor(first) !== donor(g) || first.date !== g.date) {
      problems.push({
        line: g.line,
        column: idColumn,
        reason: `The id ${g.externalId} is also on line ${first.line}, with another donor or date: one id is one gift`,
      });
      continue;
    }
    first.lines = addLines(first.lines, g.lines);
    first.amountCents += g.amountCents;
    first.fund = first.lines.map((l) => l.fund).join(', ');
    first.checkNumber ??= g.checkNumber;
  }
  return { gifts: out, problems };
}

/** `a`'s lines with `b`'s added: a fund already there gets the share added to its own. */
function addLines(a: FundLine[], b: FundLine[]): FundLine[] {
  const lines = a.map((l) => ({ ...l }));
  for (const l of b) {
    const same = lines.find((x) => x.fund.toLowerCase() === l.fund.toLowerCase());
    if (same) same.amountCents += l.amountCents;
    else lines.push({ ...l });
  }
  return lines;
}
