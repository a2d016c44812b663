/**
 * The files bench:import uploads and bench:import-read reads: a Planning Center People export of
 * `people` people in `households` households and a Giving export of `gifts` donations by them.
 */

export interface ImportSize {
  people: number;
  households: number;
  gifts: number;
}

export const importSize = (): ImportSize => ({
  people: Number(process.env.BENCH_PEOPLE ?? 5_000),
  households: Number(process.env.BENCH_HOUSEHOLDS ?? 2_000),
  gifts: Number(process.env.BENCH_GIFTS ?? 50_000),
});

const PEOPLE_HEADER =
  'Person ID,First Name,Last Name,Birthdate,Child,Home Email,Mobile Phone Number,Household ID,Household Name,Household Primary Contact,Email Opt In';
const GIFTS_HEADER =
  'Donation ID,Person ID,First Name,Last Name,Email,Received At,Fund,Amount,Payment Method,Check Number';
const FUNDS = ['General Fund', 'Missions', 'Building'];

export function peopleCsv({ people, households }: ImportSize): string {
  const rows = [PEOPLE_HEADER];
  for (let i = 1; i <= people; i++) {
    const household = ((i - 1) % households) + 1;
    const primary = i <= households;
    const phone = `512555${String(i % 10_000).padStart(4, '0')}`;
    rows.push(
      [
        10_000 + i,
        `Person${i}`,
        `Family${household}`,
        `19${50 + (i % 50)}-0${1 + (i % 9)}-1${i % 10}`,
        'false',
        `person${i}@example.org`,
        phone,
        500 + household,
        `Family${household} Household`,
        primary ? 'true' : 'false',
        i % 3 === 0 ? 'true' : '',
      ].join(','),
    );
  }
  return rows.join('\n') + '\n';
}

export function giftsCsv({ people, households, gifts }: ImportSize): { csv: string; totalCents: number } {
  const rows = [GIFTS_HEADER];
  let totalCents = 0;
  for (let i = 1; i <= gifts; i++) {
    const person = ((i * 7) % people) + 1;
    const cents = 1_000 + ((i * 37) % 50_000);
    totalCents += cents;
    const day = new Date(Date.UTC(2023, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
    rows.push(
      [
        `D${i}`,
        10_000 + person,
        `Person${person}`,
        `Family${((person - 1) % households) + 1}`,
        `person${person}@example.org`,
        `${day} 10:00:00 UTC`,
        FUNDS[i % FUNDS.length],
        (cents / 100).toFixed(2),
        i % 2 ? 'card' : 'check',
        i % 2 ? '' : String(1000 + i),
      ].join(','),
    );
  }
  return { csv: rows.join('\n') + '\n', totalCents };
}
