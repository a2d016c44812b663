import crypto from 'node:crypto';
import type { Db } from '@lampstand/db';
import type { ImportPreview } from '../../schemas/imports.js';
import { churchCountryCode } from '../settings/church-settings.js';
import { monthlyCents } from '../giving/renewals.js';
import { enrollRenewalJourney, ensureRenewalJourney } from '../journeys/renewal-journey.js';
import { matchPeople } from './people.js';
import { asPerson, readRecurring, type RecurringRow } from './recurring-read.js';
import type { SourceDef } from './sources.js';
import { fundsByName, makeMissingFunds } from './write-gifts.js';

/**
 * A recurring-gift export (the third kind of import): its dry run, and its commit, which writes a
 * renewal per recurring gift (giving/renewals.ts), not a schedule (card details cannot move
 * between processors), and enrols the givers found among the contacts in the journey that asks
 * them back.
 */

const totalOf = (r: RecurringRow) => r.lines.reduce((s, l) => s + l.amountCents, 0);

export async function previewRecurring(
  db: Db,
  tenantId: number,
  input: { def: SourceDef; csv: string; countryCode: string },
): Promise<{ preview: ImportPreview; items: number }> {
  const file = await readRecurring(input.csv, input.def, input.countryCode);
  const people = file.items.map(asPerson);
  const matches = await matchPeople(db, tenantId, input.def.system, people);
  const have = await fundsByName(db, tenantId);
  const funds = new Map<string, { name: string; isNew: boolean; monthlyCents: number }>();
  for (const r of file.items) {
    for (const l of r.lines) {
      const f = funds.get(l.fund.toLowerCase()) ?? {
        name: l.fund,
        isNew: !have.has(l.fund.toLowerCase()),
        monthlyCents: 0,
      };
      f.monthlyCents += monthlyCents(r.frequency, l.amountCents);
      funds.set(l.fund.toLowerCase(), f);
    }
  }
  const matched = matches.filter(Boolean).length;
  return {
    items: file.items.length,
    preview: {
      rows: file.rows,
      people: null,
      gifts: null,
      recurring: {
        count: file.items.length,
        donorsMatched: matched,
        donorsNotFound: file.items.length - matched,
        inactive: file.inactive,
        monthlyCents: file.items.reduce((s, r) => s + monthlyCents(r.frequency, totalOf(r)), 0),
        funds: [...funds.values()].sort((a, b) => a.name.localeCompare(b.name)),
      },
      problems: file.problems.slice(0, 10_000),
    },
  };
}

interface Claimed {
  id: number;
  userId: number;
  source: string;
  csv: string;
}

/**
 * The commit, in one transaction (a church's recurring givers are hundreds, not thousands of
 * rows): funds the church lacks are made (off the giving page, as a donations import makes them;
 * the giver's own link still offers them), a renewal per gift (the same gift imported again is
 * left as it was), and the givers with a contact enter the journey.
 */
export async function writeRecurring(
  trx: Db,
  imp: Claimed,
  def: SourceDef,
): Promise<{ report: Record<string, unknown>; processed: number }> {
  const countryCode = await churchCountryCode(trx, imp.userId);
  const file = await readRecurring(imp.csv, def, countryCode);
  const fundsCreated = await makeMissingFunds(trx, imp.userId, [
    ...new Set(file.items.flatMap((r) => r.lines.map((l) => l.fund))),
  ]);
  const funds = await fundsByName(trx, imp.userId);
  const matches = await matchPeople(trx, imp.userId, def.system, file.items.map(asPerson));
  let created = 0;
  const contacts: number[] = [];
  for (let i = 0; i < file.items.length; i += 500) {
    const batch = file.items.slice(i, i + 500);
    const rows = await trx
      .insertInto('giftRenewals')
      .values(
        batch.map((r, j) => {
          const ours = matches[i + j];
          const amount = totalOf(r);
          return {
            userId: imp.userId,
            importId: imp.id,
            contactId: ours?.id ?? null,
            source: def.system,
            externalId: r.externalId,
            donorName: `${r.firstName} ${r.lastName}`.trim() || r.email || 'Giver',
            donorEmail: r.email,
            frequency: r.frequency,
            lines: JSON.stringify(
              r.lines.map((l) => ({
                fundId: funds.get(l.fund.toLowerCase())!,
                fundName: l.fund,
                amountCents: l.amountCents,
              })),
            ),
            amountCents: amount,
            monthlyCents: monthlyCents(r.frequency, amount),
            lastChargeDate: r.lastChargeDate,
            startDate: r.startDate,
            token: crypto.randomBytes(32).toString('base64url'),
          };
        }),
      )
      .onConflict((oc) => oc.columns(['userId', 'source', 'externalId']).doNothing())
      .returning('contactId')
      .execute();
    created += rows.length;
    for (const r of rows) if (r.contactId) contacts.push(r.contactId);
  }
  const enrolled = contacts.length ? await enrollRenewalJourney(trx, imp.userId, contacts) : 0;
  return {
    processed: file.items.length,
    report: { people: null, totals: [], fundsCreated, recurring: { created, enrolled } },
  };
}

/** Run by the import job for a recurring file: fenced and finished by run.ts's own steps. */
export async function runRecurring(
  db: Db,
  imp: Claimed,
  steps: {
    def: SourceDef;
    fence: (trx: Db, importId: number, processed: number) => Promise<void>;
    finish: (trx: Db, importId: number, report: Record<string, unknown>) => Promise<void>;
  },
): Promise<void> {
  await ensureRenewalJourney(db, imp.userId);
  await db.transaction().execute(async (trx) => {
    await steps.fence(trx, imp.id, 0);
    const { report, processed } = await writeRecurring(trx, imp, steps.def);
    await trx.updateTable('imports').set({ processedRows: processed }).where('id', '=', imp.id).execute();
    await steps.finish(trx, imp.id, report);
  });
}
