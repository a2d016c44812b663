import { sql, type Db, type DonationSourceKind, type VisitSourceKind } from '@lampstand/db';

/** A thing a church names that a visit or a gift can come from. */
export type NamedSourceKind = DonationSourceKind;

/** Where each kind of source is named: its table, and the label's prefix. */
const SOURCE_NAMES = {
  email: { table: 'emailCampaigns', prefix: 'Email' },
  sms: { table: 'smsCampaigns', prefix: 'SMS' },
  qr: { table: 'qrCodes', prefix: 'QR code' },
  link: { table: 'qrCodes', prefix: 'Short link' },
  page: { table: 'landingPages', prefix: 'Landing page' },
} as const satisfies Record<NamedSourceKind, { table: string; prefix: string }>;

const isNamed = (kind: string): kind is NamedSourceKind => kind in SOURCE_NAMES;

/**
 * Names of the things visits and gifts came from, as a person reads them, joined from their tables
 * (the church's own rows only): 'QR code: Christmas bulletin', 'Short link: /s/abc123 (Christmas
 * bulletin)', 'Email: Advent news'. One deleted since reads e.g. 'QR code #5 (deleted)'.
 */
export async function sourceLabels(
  db: Db,
  tenantId: number,
  refs: readonly { kind: NamedSourceKind; id: number }[],
): Promise<(kind: NamedSourceKind, id: number) => string> {
  const labels = new Map<string, string>();
  const tables = [...new Set(Object.values(SOURCE_NAMES).map((n) => n.table))];
  await Promise.all(
    tables.map(async (table) => {
      const kinds = (Object.keys(SOURCE_NAMES) as NamedSourceKind[]).filter((k) => SOURCE_NAMES[k].table === table);
      const ids = [...new Set(refs.filter((r) => kinds.includes(r.kind)).map((r) => r.id))];
      if (ids.length === 0) return;
      const rows =
        table === 'qrCodes'
          ? await db
              .selectFrom('qrCodes')
              .select(['id', 'name', 'shortCode'])
              .where('userId', '=', tenantId)
              .where('id', 'in', ids)
              .execute()
          : await db
              .selectFrom(table)
              .select(['id', 'name', sql<string | null>`null`.as('shortCode')])
              .where('userId', '=', tenantId)
              .where('id', 'in', ids)
              .execute();
      for (const r of rows)
        for (const kind of kinds)
          labels.set(
            `${kind}.${r.id}`,
            kind === 'link' && r.shortCode
              ? `${SOURCE_NAMES[kind].prefix}: /s/${r.shortCode} (${r.name})`
              : `${SOURCE_NAMES[kind].prefix}: ${r.name}`,
          );
    }),
  );
  return (kind, id) => labels.get(`${kind}.${id}`) ?? `${SOURCE_NAMES[kind].prefix} #${id} (deleted)`;
}

/** A visit's source as stored (`kind`, and the id as text for our own links). */
interface VisitSourceRef {
  kind: VisitSourceKind;
  value: string | null;
}

/** The id a first-party visit source names (`qr.12` is stored as kind 'qr', value '12'), else null. */
function namedRef(s: { kind: string; value: string | null }): { kind: NamedSourceKind; id: number } | null {
  const id = s.value !== null && /^[1-9]\d{0,9}$/.test(s.value) ? Number(s.value) : NaN;
  return isNamed(s.kind) && id <= 2_147_483_647 ? { kind: s.kind, id } : null;
}

/**
 * Labels for landing-page visit sources in plain words: the church's names for its QR codes, short
 * links and campaigns (as `sourceLabels`), 'Campaign link: …' for UTM tags, the referring site, or
 * 'Direct (typed or no referrer)'.
 */
export async function visitSourceLabels(
  db: Db,
  tenantId: number,
  sources: readonly VisitSourceRef[],
): Promise<(source: VisitSourceRef) => string> {
  const named = await sourceLabels(
    db,
    tenantId,
    sources.flatMap((s) => namedRef(s) ?? []),
  );
  return (s) => {
    const ref = namedRef(s);
    if (ref) return named(ref.kind, ref.id);
    switch (s.kind) {
      case 'utm':
        return `Campaign link: ${s.value ?? ''}`;
      case 'referrer':
        return s.value ?? 'Another site';
      case 'direct':
        return 'Direct (typed or no referrer)';
      default:
        return 'Unknown source';
    }
  };
}

/**
 * A visit's source as an event names it (schemas/events.ts): its kind, the id of the church's own
 * thing (a QR code, a campaign), and its name as the church wrote it ('Lobby banner', not 'QR
 * code: Lobby banner': the timeline says what kind it is in its own words).
 */
export async function eventSource(
  db: Db,
  tenantId: number,
  source: { kind: VisitSourceKind | NamedSourceKind; value: string | null },
): Promise<{ kind: VisitSourceKind | NamedSourceKind; id: number | null; name: string }> {
  const ref = namedRef(source);
  if (!ref) {
    const visit = source as VisitSourceRef;
    return { kind: source.kind, id: null, name: (await visitSourceLabels(db, tenantId, [visit]))(visit) };
  }
  const label = (await sourceLabels(db, tenantId, [ref]))(ref.kind, ref.id);
  const prefix = `${SOURCE_NAMES[ref.kind].prefix}: `;
  return { kind: source.kind, id: ref.id, name: label.startsWith(prefix) ? label.slice(prefix.length) : label };
}
