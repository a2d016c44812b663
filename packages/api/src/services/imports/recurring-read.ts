import type { RecurringFrequency } from '../../schemas/giving.js';
import type { ImportProblem } from '../../schemas/imports.js';
import { openCsv } from '../contacts/import-csv.js';
import { toE164 } from '../contacts/phone.js';
import { nextChargeDate } from '../giving/dates.js';
import type { PersonRow, ReadFile } from './read.js';
import { cellOf, columnMap, type ColumnMap, type SourceDef } from './sources.js';
import { readAmount, readDate, type Read } from './values.js';

/**
 * A recurring-gift export read into the recurring gifts to bring back: one per gift of the old
 * system (a gift to several funds is a row per fund there, joined here by its id), with the first
 * date after its last charge. A gift the old system had already stopped is left out (counted).
 */

export interface RecurringRow {
  line: number;
  externalId: string;
  personId: string | null;
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  frequency: RecurringFrequency;
  lines: { fund: string; amountCents: number }[];
  lastChargeDate: string | null;
  /** The first date after the last charge there: the old system's next date, else worked out. */
  startDate: string;
}

const STOPPED = /^(cancel+ed|deleted|expired|ended|inactive|stopped|completed|finished)$/i;

/** The frequency as the exports word it ('Every 2 weeks', 'Monthly on the 1st', 'Twice a month'). */
export function readFrequency(raw: string): Read<RecurringFrequency> {
  const s = raw.trim().toLowerCase().replace(/[-_]/g, ' ').replace(/\s+/g, ' ');
  if (!s) return { ok: false, reason: 'The frequency is empty' };
  const words: [RegExp, RecurringFrequency][] = [
    [/^(1st (and|&) 15th|first and fifteenth|twice (a|per) month|semi ?monthly)\b/, 'first_and_fifteenth'],
    [/^(every (2|two|other) weeks?|bi ?weekly|fortnightly|every_two_weeks)\b/, 'every_two_weeks'],
    [/^(weekly|every week|once a week|every (sun|mon|tue|wed|thu|fri|sat)[a-z]*)\b/, 'weekly'],
    [/^(monthly|every month|once a month)\b/, 'monthly'],
    [/^(yearly|annually|every year|once a year)\b/, 'yearly'],
  ];
  for (const [re, f] of words) if (re.test(s)) return { ok: true, value: f };
  return {
    ok: false,
    reason: `'${raw.trim()}' is not a frequency Lampstand has (weekly, every two weeks, monthly, 1st and 15th or yearly)`,
  };
}

/** The donor of a recurring gift as a person of a people file, for the same matching. */
export function asPerson(r: RecurringRow): PersonRow {
  return {
    line: r.line,
    externalId: r.personId,
    firstName: r.firstName,
    lastName: r.lastName,
    birthDate: null,
    email: r.email,
    phone: r.phone,
    phoneE164: r.phoneE164,
    households: [],
    child: false,
    emailOptIn: null,
    smsOptIn: null,
    address: {},
    notes: null,
  };
}

export async function readRecurring(
  csv: string,
  def: SourceDef,
  countryCode: string,
): Promise<ReadFile<RecurringRow> & { inactive: number }> {
  const { headers, rows } = await openCsv(csv);
  const map = columnMap(def, headers);
  const byId = new Map<string, RecurringRow>();
  const problems: ImportProblem[] = [];
  let count = 0;
  let inactive = 0;
  for await (const { line, cells } of rows) {
    count++;
    if (STOPPED.test(cellOf(map, 'status', cells)?.value ?? '')) {
      inactive++;
      continue;
    }
    const r = readRow(map, cells, line, countryCode);
    if ('reason' in r) {
      problems.push(r);
      continue;
    }
    const seen = byId.get(r.externalId);
    if (!seen) byId.set(r.externalId, r);
    else if (seen.frequency !== r.frequency) {
      problems.push({
        line,
        column: map.at.frequency?.[0]?.name ?? null,
        reason: `Recurring gift ${r.externalId} is ${r.frequency.replace(/_/g, ' ')} here but ${seen.frequency.replace(/_/g, ' ')} on line ${seen.line}`,
      });
    } else {
      // Another fund of the same gift.
      const same = seen.lines.find((l) => l.fund.toLowerCase() === r.lines[0]!.fund.toLowerCase());
      if (same) same.amountCents += r.lines[0]!.amountCents;
      else seen.lines.push(r.lines[0]!);
    }
  }
  return { rows: count, items: [...byId.values()], problems, inactive };
}

function readRow(map: ColumnMap, cells: string[], line: number, countryCode: string): RecurringRow | ImportProblem {
  const get = (f: Parameters<typeof cellOf>[1]) => cellOf(map, f, cells);
  const col = (f: Parameters<typeof cellOf>[1]) => map.at[f]?.[0]?.name ?? null;
  const first = get('firstName')?.value ?? '';
  const last = get('lastName')?.value ?? '';
  const email = get('email')?.value.toLowerCase() ?? null;
  if (!first && !last && !email) return { line, column: col('firstName'), reason: 'The row has no name or email' };
  const amountCell = get('amount');
  if (!amountCell) return { line, column: col('amount'), reason: 'The row has no amount' };
  const amount = readAmount(amountCell.value);
  if (!amount.ok) return { line, column: amountCell.column, reason: amount.reason };
  if (amount.value < 0) return { line, column: amountCell.column, reason: 'A recurring gift cannot be negative' };
  const fund = get('fund');
  if (!fund) return { line, column: col('fund'), reason: 'The row has no fund' };
  const freqCell = get('frequency');
  if (!freqCell) return { line, column: col('frequency'), reason: 'The row has no frequency' };
  const frequency = readFrequency(freqCell.value);
  if (!frequency.ok) return { line, column: freqCell.column, reason: frequency.reason };
  const dates: Partial<Record<'lastDate' | 'nextDate', string>> = {};
  for (const f of ['lastDate', 'nextDate'] as const) {
    const cell = get(f);
    if (!cell) continue;
    const d = readDate(cell.value);
    if (!d.ok) return { line, column: cell.column, reason: d.reason };
    if (d.value) dates[f] = d.value;
  }
  const { lastDate, nextDate } = dates;
  if (!lastDate && !nextDate) {
    return { line, column: col('lastDate') ?? col('nextDate'), reason: 'The row has no last gift date or next date' };
  }
  const startDate =
    nextDate && (!lastDate || nextDate > lastDate) ? nextDate : nextChargeDate(frequency.value, lastDate!, lastDate!);
  const phone = get('phone')?.value ?? null;
  const personId = get('personId')?.value ?? null;
  return {
    line,
    // No id of the gift: the person and frequency name it (a second row is another fund of it).
    externalId: get('externalId')?.value ?? `${personId ?? email ?? `${first} ${last}`}|${frequency.value}`,
    personId,
    firstName: first,
    lastName: last,
    email,
    phone,
    phoneE164: toE164(phone, countryCode),
    frequency: frequency.value,
    lines: [{ fund: fund.value.replace(/\s+/g, ' '), amountCents: amount.value }],
    lastChargeDate: lastDate ?? null,
    startDate,
  };
}
