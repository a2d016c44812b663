import type { Db } from '@lampstand/db';
import type { ImportPreview, ImportProblem } from '../../schemas/imports.js';
import { changesFor, householdsWithAdults, isChildOfHousehold, matchPeople } from './people.js';
import { fileTotals, fundNames, readGifts, readPeople } from './read.js';
import type { SourceDef } from './sources.js';
import { donorsOf, fundsByName } from './write-gifts.js';

/** The dry run: what committing the file would do, computed without writing anything. */

/** Problems kept in the preview (a file with more has them counted, the first ones listed). */
const MAX_PROBLEMS = 10_000;
const MAX_CHANGES = 50;

const capped = (problems: ImportProblem[]) => problems.slice(0, MAX_PROBLEMS);

export async function previewFile(
  db: Db,
  tenantId: number,
  input: { def: SourceDef; csv: string; countryCode: string },
): Promise<{ preview: ImportPreview; items: number }> {
  const { def, csv } = input;
  // Loaded when a recurring file comes: its module brings the renewals and their journey, which the
  // people and gifts previews (the preview thread's usual work) do without.
  if (def.kind === 'recurring') return (await import('./recurring.js')).previewRecurring(db, tenantId, input);
  if (def.kind === 'people') {
    const file = await readPeople(csv, def, input.countryCode);
    const withAdult = householdsWithAdults(file.items);
    const adults = file.items.filter((p) => !isChildOfHousehold(p, withAdult));
    const matches = await matchPeople(db, tenantId, def.system, adults, file.items);
    let changed = 0;
    const changes: { line: number; name: string; fields: string[] }[] = [];
    for (let i = 0; i < adults.length; i++) {
      const p = adults[i]!;
      const ours = matches[i];
      if (!ours) continue;
      const fields = Object.keys(changesFor(p, ours, {}));
      if (!fields.length) continue;
      changed++;
      if (changes.length < MAX_CHANGES)
        changes.push({ line: p.line, name: `${p.firstName} ${p.lastName}`.trim(), fields });
    }
    const matched = matches.filter(Boolean).length;
    return {
      items: file.items.length,
      preview: {
        rows: file.rows,
        people: {
          new: adults.length - matched,
          matched,
          changed,
          skipped: file.problems.length,
          households: new Set(file.items.flatMap((p) => p.households.map((h) => h.id))).size,
          children: file.items.length - adults.length,
          changes,
        },
        gifts: null,
        problems: capped(file.problems),
      },
    };
  }
  const file = await readGifts(csv, def);
  const have = await fundsByName(db, tenantId);
  const donorOf = await donorsOf(db, tenantId, def.system, file.items);
  const donorKey = (g: (typeof file.items)[number]) => g.personId ?? g.email ?? g.donorName ?? `line ${g.line}`;
  const matchedDonors = new Set<string>();
  const unmatchedDonors = new Set<string>();
  for (let i = 0; i < file.items.length; i++) {
    const g = file.items[i]!;
    (donorOf(g) ? matchedDonors : unmatchedDonors).add(donorKey(g));
  }
  const totals = fileTotals(file.items);
  return {
    items: file.items.length,
    preview: {
      rows: file.rows,
      people: null,
      gifts: {
        count: file.items.length,
        refunds: file.items.filter((g) => g.refundedOn).length,
        totalCents: totals.reduce((s, t) => s + t.cents, 0),
        donorsMatched: matchedDonors.size,
        donorsNotFound: unmatchedDonors.size,
        funds: fundNames(file.items)
          .sort()
          .map((name) => ({ name, isNew: !have.has(name.toLowerCase()) })),
        totals,
      },
      problems: capped(file.problems),
    },
  };
}
