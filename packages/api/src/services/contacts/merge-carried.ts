import { sql, type Db } from '@lampstand/db';

/**
 * A column naming a person in a table of the church's other records, which a merge points at the
 * kept contact. `twin`: the other columns of a unique key the column belongs to; a row whose twin
 * the kept contact already has (both people in one group, both marked at one meeting, both sent a
 * statement in one run, a family card each) stays with the other contact and goes with it.
 */
export interface CarriedColumn {
  table: string;
  column: string;
  twin?: readonly string[];
  /**
   * A row here is something the person did (gave, checked a child in, joined or attended a group,
   * registered, texted): undoing the import that added them keeps them rather than erase it
   * (imports/undo-people.ts). The move-in screen names these five.
   */
  history?: true;
}

/**
 * Everything that names a person, carried by a merge (besides what `mergeContacts` moves itself:
 * lists and family links, which need their own rules, and events): children, consent history,
 * campaign deliveries, sign-ups, teams, journeys and tasks; their gifts in the ledger, recurring gifts, renewals and sent statements; their text
 * conversations; event registrations; groups (memberships, join requests, attendance, messages);
 * check-in (family cards, check-ins, offline families); the ids Planning Center or Breeze know
 * them by; changes they proposed in the portal; and earlier merges into the other contact. Every
 * foreign key to `contacts` is either here, moved by `mergeContacts`, or derived
 * (`merge-carried.test.ts` reads them from the catalogue), so a new table naming people cannot be
 * left out: before this list, a merge deleted the other person's statements, group memberships,
 * attendance and check-ins (their foreign keys cascade) and left their gifts without a donor.
 */
export const CARRIED: readonly CarriedColumn[] = [
  { table: 'contact_children', column: 'parent_contact_id' },
  { table: 'contact_consent_events', column: 'contact_id' },
  // A campaign both received stays on the kept contact's delivery; the other's loses its contact.
  { table: 'deliveries', column: 'contact_id', twin: ['channel', 'campaign_id'] },
  { table: 'landing_page_signups', column: 'contact_id' },
  { table: 'team_members', column: 'contact_id' },
  // The kept contact carries on the other's journeys and follow-ups.
  { table: 'journey_enrollments', column: 'contact_id' },
  { table: 'tasks', column: 'contact_id' },
  { table: 'tasks', column: 'assignee_contact_id' },
  { table: 'gifts', column: 'contact_id', history: true },
  { table: 'gift_schedules', column: 'contact_id', history: true },
  { table: 'gift_renewals', column: 'contact_id' },
  { table: 'giving_statements', column: 'contact_id', twin: ['run_id'] },
  { table: 'conversations', column: 'contact_id', history: true },
  { table: 'calendar_registrations', column: 'contact_id', history: true },
  { table: 'group_members', column: 'contact_id', twin: ['group_id'], history: true },
  { table: 'group_join_requests', column: 'contact_id' },
  { table: 'group_attendance', column: 'contact_id', twin: ['meeting_id'], history: true },
  { table: 'group_messages', column: 'sender_contact_id' },
  { table: 'checkin_family_cards', column: 'contact_id', twin: [] },
  { table: 'checkins', column: 'family_contact_id', history: true },
  { table: 'checkin_offline_families', column: 'contact_id' },
  { table: 'contact_external_ids', column: 'contact_id' },
  { table: 'profile_update_proposals', column: 'contact_id' },
  { table: 'contact_merges', column: 'kept_contact_id' },
];

/** Points every `CARRIED` column from `otherId` at `keepId` (twins aside); the rows moved, by table (`giftSchedules`). */
export async function carryOver(
  trx: Db,
  tenantId: number,
  input: { keepId: number; otherId: number },
): Promise<Record<string, number>> {
  const moved: Record<string, number> = {};
  for (const { table, column, twin } of CARRIED) {
    const col = sql.ref(`o.${column}`);
    const sameKey = (twin ?? []).map((c) => sql`and ${sql.ref(`k.${c}`)} = ${sql.ref(`o.${c}`)}`);
    const noTwin = twin
      ? sql`and not exists (select 1 from ${sql.table(table)} k where k.user_id = ${tenantId}
              and ${sql.ref(`k.${column}`)} = ${input.keepId} ${sameKey.length ? sql.join(sameKey, sql` `) : sql``})`
      : sql``;
    const r = await sql`update ${sql.table(table)} o set ${sql.ref(column)} = ${input.keepId}
      where o.user_id = ${tenantId} and ${col} = ${input.otherId} ${noTwin}`.execute(trx);
    const key = table.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    moved[key] = (moved[key] ?? 0) + Number(r.numAffectedRows ?? 0);
  }
  return moved;
}
