import { sql, type Kysely } from 'kysely';

// Frozen: never edit after it has landed. A change is a new migration.
//
// Issue 31 §1, §2: a member's most times a month and 'Schedule with my household'; a blockout may
// recur inside its range (every 2nd Sunday; every other week), as JSON the scheduler reads.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    alter table team_members
      add column max_per_month integer check (max_per_month between 1 and 31),
      add column schedule_with_household boolean not null default false`.execute(db);
  await sql`
    alter table team_member_blockouts
      add column recurrence jsonb check (recurrence is null or jsonb_typeof(recurrence) = 'object')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table team_member_blockouts drop column recurrence`.execute(db);
  await sql`alter table team_members drop column max_per_month, drop column schedule_with_household`.execute(db);
}
