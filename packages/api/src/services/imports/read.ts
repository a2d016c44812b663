import type { ContactMetadata } from '@lampstand/db';
import type { ImportProblem } from '../../schemas/imports.js';
import { openCsvReader } from '../contacts/import-csv.js';
import { toE164 } from '../contacts/phone.js';
import { readFundLines, type FundLine } from './fund-lines.js';
import { joinPaymentRows } from './same-payment.js';
import { cellOf, columnMap, firstColumn, valueOf, type ColumnMap, type SourceDef } from './sources.js';
import {
  lowerCased,
  nameKey,
  oneSpaced,
  readAmount,
  readBirthDate,
  readDate,
  methodReader,
  readYesNo,
} from './values.js';

/** A whole export read into people or gifts, with a problem for every row that cannot be read. */

export interface PersonRow {
  line: number;
  externalId: string | null;
  firstName: string;
  lastName: string;
  birthDate: string | null;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  /** Every household the person is in (a person can be in two: a row for each). */
  households: { id: string; name: string | null; primary: boolean; role: string | null }[];
  child: boolean;
  emailOptIn: boolean | null;
  smsOptIn: boolean | null;
  address: Partial<ContactMetadata>;
  /** The columns the product has no place for, as 'Column: value' lines. */
  notes: string | null;
}

export interface GiftRow {
  line: number;
  externalId: string | null;
  personId: string | null;
  donorName: string | null;
  email: string | null;
  date: string;
  /** The fund, or for a gift split between funds their names joined by ', '. */
  fund: string;
  amountCents: number;
  /** The gift's share per fund (one line unless the row splits it): what the ledger's lines are. */
  lines: FundLine[];
  method: 'card' | 'cash' | 'check' | 'other';
  checkNumber: string | null;
  /** For a gift a later line of the file refunds: that line's date. */
  refundedOn: string | null;
}

export interface ReadFile<T> {
  rows: number;
  items: T[];
  problems: ImportProblem[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * How a file is read: the preview reads it in short slices with the event loop's turns between them
 * (the upload answers the staff, in the API process that serves other churches' requests), the
 * commit's job also with its pacer's turns (the job's one pace, for its reading and its batches).
 */
export type ReadOptions = Parameters<typeof openCsvReader>[1];

/** The people of a people file; a person on several rows (two households) is one person. */
export async function readPeople(
  csv: string,
  def: SourceDef,
  countryCode: string,
  opts: ReadOptions = {},
): Promise<ReadFile<PersonRow>> {
  const csvFile = openCsvReader(csv, opts);
  const map = columnMap(def, csvFile.headers);
  const out: PersonRow[] = [];
  const byKey = new Map<string, PersonRow>();
  const problems: ImportProblem[] = [];
  let count = 0;
  for (let cells = csvFile.next(); cells !== null; cells = csvFile.next()) {
    const line = csvFile.line;
    const turn = csvFile.pause();
    if (turn) await turn;
    count++;
    const person = readPerson(map, cells, line, countryCode);
    if ('reason' in person) {
      problems.push(person);
      continue;
    }
    const key = person.externalId
      ? `id:${person.externalId}`
      : `name:${nameKey(person.firstName, person.lastName)}|${person.birthDate ?? person.email ?? ''}`;
    const seen = byKey.get(key);
    if (seen) {
      // The same person again: another household of theirs, else a duplicate row.
      for (const h of person.households) if (!seen.households.some((x) => x.id === h.id)) seen.households.push(h);
      continue;
    }
    byKey.set(key, person);
    out.push(person);
  }
  return { rows: count, items: out, problems };
}

const HEAD_OF_HOUSEHOLD = /^(head|primary)/i;
const CHILD = /^child/i;
const ADDRESS_FIELDS = ['address', 'city', 'state', 'postalCode'] as const;

/** A person's row read into a person, or the problem that stops it (its cells read without an object for each). */
function readPerson(map: ColumnMap, cells: string[], line: number, countryCode: string): PersonRow | ImportProblem {
  const firstName = valueOf(map, 'firstName', cells) ?? '';
  const lastName = valueOf(map, 'lastName', cells) ?? '';
  if (!firstName && !lastName) return { line, column: firstColumn(map, 'firstName'), reason: 'The row has no name' };
  const birth = valueOf(map, 'birthDate', cells);
  const born = birth !== null ? readBirthDate(birth) : null;
  if (born && !born.ok) return { line, column: cellOf(map, 'birthDate', cells)!.column, reason: born.reason };
  const notes: string[] = [];
  if (born?.ok && born.value.yearless) notes.push(`${cellOf(map, 'birthDate', cells)!.column}: ${birth}`);
  let email = valueOf(map, 'email', cells);
  if (email && !EMAIL.test(email)) {
    notes.push(`Email: ${email}`);
    email = null;
  }
  const phone = valueOf(map, 'phone', cells);
  const role = valueOf(map, 'role', cells);
  const householdId = valueOf(map, 'householdId', cells);
  const primaryCell = valueOf(map, 'primary', cells);
  for (let i = 0; i < map.extra.length; i++) {
    const c = map.extra[i]!;
    const v = (cells[c.index] ?? '').trim();
    if (v) notes.push(`${c.name}: ${v}`);
  }
  const address: Partial<ContactMetadata> = {};
  for (let i = 0; i < ADDRESS_FIELDS.length; i++) {
    const v = valueOf(map, ADDRESS_FIELDS[i]!, cells);
    if (v) address[ADDRESS_FIELDS[i]!] = v;
  }
  return {
    line,
    externalId: valueOf(map, 'externalId', cells),
    firstName,
    lastName,
    birthDate: born?.ok ? born.value.date : null,
    email,
    phone,
    phoneE164: toE164(phone, countryCode),
    households: householdId
      ? [
          {
            id: householdId,
            name: valueOf(map, 'householdName', cells),
            // 'Head of Household' (Breeze, ChurchCRM), 'Primary Contact' (Elvanto).
            primary: readYesNo(primaryCell ?? undefined) === true || HEAD_OF_HOUSEHOLD.test(role ?? ''),
            role,
          },
        ]
      : [],
    child: readYesNo(valueOf(map, 'child', cells) ?? undefined) === true || CHILD.test(role ?? ''),
    emailOptIn: readYesNo(valueOf(map, 'emailOptIn', cells) ?? undefined),
    smsOptIn: readYesNo(valueOf(map, 'smsOptIn', cells) ?? undefined),
    address,
    notes: notes.length ? notes.join('\n') : null,
  };
}

const money = (cents: number) =>
  `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;

/**
 * The gifts of a donations file. A negative line is a refund: it marks the donor's gift of that
 * amount to that fund on or before its date as refunded, so the ledger leaves both out of its
 * totals; a refund with no such gift is a problem.
 */
export async function readGifts(csv: string, def: SourceDef, opts: ReadOptions = {}): Promise<ReadFile<GiftRow>> {
  const csvFile = openCsvReader(csv, opts);
  const map = columnMap(def, csvFile.headers);
  const values = new FileValues();
  const gifts: GiftRow[] = [];
  const refunds: GiftRow[] = [];
  const problems: ImportProblem[] = [];
  let count = 0;
  for (let cells = csvFile.next(); cells !== null; cells = csvFile.next()) {
    const line = csvFile.line;
    const turn = csvFile.pause();
    if (turn) await turn;
    count++;
    const g = readGift(map, cells, line, def.splitFunds === true, values);
    if ('reason' in g) problems.push(g);
    else if (g.amountCents < 0) refunds.push(g);
    else gifts.push(g);
  }
  const joined = joinPaymentRows(gifts, map.at.externalId?.[0]?.name ?? null);
  const items = joined.gifts;
  for (const p of joined.problems) problems.push(p);
  const donor = (g: GiftRow) => g.personId ?? g.email ?? g.donorName ?? '';
  // Each donor's gifts in file order, so a refund looks only at its donor's (not every gift of the file).
  const byDonor = new Map<string, GiftRow[]>();
  if (refunds.length) {
    for (const g of items) {
      const list = byDonor.get(donor(g));
      if (list) list.push(g);
      else byDonor.set(donor(g), [g]);
    }
  }
  for (const r of refunds) {
    // The latest such gift on or before the refund (the first in the file of those on that date).
    let match: GiftRow | undefined;
    for (const g of byDonor.get(donor(r)) ?? [])
      if (!g.refundedOn && refundsAll(r, g) && g.date <= r.date && (!match || g.date > match.date)) match = g;
    if (match) match.refundedOn = r.date;
    else {
      problems.push({
        line: r.line,
        column: map.at.amount?.[0]?.name ?? null,
        reason: `A refund of ${money(r.amountCents)} with no gift of ${money(-r.amountCents)} to ${r.fund} by the same donor before it`,
      });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows: count, items, problems };
}

/** Whether a refund line takes back the whole of a gift: the same funds, each the same amount. */
const refundsAll = (r: GiftRow, g: GiftRow) =>
  r.lines.length === g.lines.length &&
  r.lines.every((rl) =>
    g.lines.some((gl) => gl.fund.toLowerCase() === rl.fund.toLowerCase() && gl.amountCents === -rl.amountCents),
  );

/**
 * What a file repeats on many rows (a donor's id, email and name, a fund, a date, a method's
 * wording), each kept once for the file: the gifts share one string instead of holding a copy each
 * (50,000 gifts kept until the preview is written: fewer objects for the collector to copy and mark).
 */
class FileValues {
  private readonly strings = new Map<string, string>();
  private readonly names = new Map<string, Map<string, string>>();
  readonly method = methodReader();

  /** The first string equal to `s` met in the file. */
  once<S extends string | null>(s: S): S {
    if (s === null) return s;
    const kept = this.strings.get(s);
    if (kept !== undefined) return kept as S;
    this.strings.set(s, s);
    return s;
  }

  /** A donor's name from trimmed cells: 'first last', or the one there is. */
  name(first: string | null, last: string | null): string | null {
    if (first === null || last === null) return first ?? last;
    let byLast = this.names.get(first);
    if (!byLast) this.names.set(first, (byLast = new Map<string, string>()));
    let name = byLast.get(last);
    if (name === undefined) byLast.set(last, (name = `${first} ${last}`));
    return name;
  }
}

/** The column of a field's cell in this row (one the row has), for a problem. */
const cellColumn = (map: ColumnMap, field: 'date' | 'amount' | 'fund', cells: string[]) =>
  cellOf(map, field, cells)!.column;

/** A gift's row read into a gift, or the problem that stops it (its cells read without an object for each). */
function readGift(
  map: ColumnMap,
  cells: string[],
  line: number,
  splitFunds: boolean,
  values: FileValues,
): GiftRow | ImportProblem {
  const dateCell = valueOf(map, 'date', cells);
  if (dateCell === null) return { line, column: firstColumn(map, 'date'), reason: 'The row has no date' };
  const date = readDate(dateCell);
  if (!date.ok || !date.value)
    return { line, column: cellColumn(map, 'date', cells), reason: date.ok ? 'No date' : date.reason };
  const amountCell = valueOf(map, 'amount', cells);
  if (amountCell === null) return { line, column: firstColumn(map, 'amount'), reason: 'The row has no amount' };
  const amount = readAmount(amountCell);
  if (!amount.ok) return { line, column: cellColumn(map, 'amount', cells), reason: amount.reason };
  const fund = valueOf(map, 'fund', cells);
  if (fund === null) return { line, column: firstColumn(map, 'fund'), reason: 'The row has no fund' };
  let lines: FundLine[] = [{ fund: values.once(oneSpaced(fund)), amountCents: amount.value }];
  const split = splitFunds ? readFundLines(fund, amount.value) : null;
  if (split && !split.ok) return { line, column: cellColumn(map, 'fund', cells), reason: split.reason };
  if (split?.ok) {
    const sum = split.value.reduce((n, l) => n + l.amountCents, 0);
    if (sum !== amount.value) {
      return {
        line,
        column: cellColumn(map, 'fund', cells),
        reason: `The funds’ amounts add up to ${money(sum)}, not the row’s ${cellColumn(map, 'amount', cells)} of ${money(amount.value)}`,
      };
    }
    lines = split.value;
  }
  const first = valueOf(map, 'firstName', cells);
  const last = valueOf(map, 'lastName', cells);
  const email = valueOf(map, 'email', cells);
  return {
    line,
    externalId: valueOf(map, 'externalId', cells),
    personId: values.once(valueOf(map, 'personId', cells)),
    donorName: values.name(first, last),
    email: email === null ? null : values.once(lowerCased(email)),
    date: values.once(date.value),
    fund: lines.length === 1 ? lines[0]!.fund : lines.map((l) => l.fund).join(', '),
    amountCents: amount.value,
    lines,
    method: values.method(valueOf(map, 'method', cells) ?? undefined),
    checkNumber: valueOf(map, 'checkNumber', cells),
    refundedOn: null,
  };
}

/**
 * A fund's name lower-cased, each name as written lower-cased once (a file repeats a few names on
 * every row: the same map finds them without a new string a row).
 */
function fundKeys(): (fund: string) => string {
  const keys = new Map<string, string>();
  return (fund) => {
    let key = keys.get(fund);
    if (key === undefined) keys.set(fund, (key = fund.toLowerCase()));
    return key;
  };
}

/** The funds a file's gifts name, each once (as first written). */
export function fundNames(gifts: GiftRow[]): string[] {
  const keyOf = fundKeys();
  const names = new Map<string, string>();
  for (let i = 0; i < gifts.length; i++) {
    const lines = gifts[i]!.lines;
    for (let j = 0; j < lines.length; j++) {
      const key = keyOf(lines[j]!.fund);
      if (!names.has(key)) names.set(key, lines[j]!.fund);
    }
  }
  return [...names.values()];
}

/** The year of an ISO date ('2024-03-15'): Number(date.slice(0, 4)), without the substring. */
function yearOf(date: string): number {
  let year = 0;
  for (let i = 0; i < 4; i++) {
    const d = date.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return Number(date.slice(0, 4));
    year = year * 10 + d;
  }
  return year;
}

/** The file's own totals per fund and year (refunds counted on their lines, as the file has them). */
export function fileTotals(gifts: GiftRow[]): { fund: string; year: number; count: number; cents: number }[] {
  type Total = { fund: string; year: number; count: number; cents: number };
  const keyOf = fundKeys();
  // Per lower-cased fund, per year; and every total in the order first met (which the sort keeps for ties).
  const byFund = new Map<string, Map<number, Total>>();
  const totals: Total[] = [];
  const add = (fund: string, date: string, cents: number) => {
    const year = yearOf(date);
    const key = keyOf(fund);
    let years = byFund.get(key);
    if (!years) byFund.set(key, (years = new Map<number, Total>()));
    let t = years.get(year);
    if (!t) {
      years.set(year, (t = { fund, year, count: 0, cents: 0 }));
      totals.push(t);
    }
    t.count++;
    t.cents += cents;
  };
  // Indexed loops: no iterator a gift (a file of 50,000).
  for (let i = 0; i < gifts.length; i++) {
    const g = gifts[i]!;
    for (let j = 0; j < g.lines.length; j++) {
      const l = g.lines[j]!;
      add(l.fund, g.date, l.amountCents);
      if (g.refundedOn) add(l.fund, g.refundedOn, -l.amountCents);
    }
  }
  return totals.sort((a, b) => a.fund.localeCompare(b.fund) || a.year - b.year);
}
