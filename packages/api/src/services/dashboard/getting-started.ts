import { sql, type Db } from '@lampstand/db';
import { GETTING_STARTED_STEPS, type GettingStarted } from '../../schemas/getting-started.js';

/**
 * The dashboard's getting-started checklist, read from what the church really did, in one
 * statement: its public profile saved (so its handle is chosen), a contact, a verified sending
 * domain, an email or text campaign, and a published page on its church home (which needs the
 * profile too: without it there is no home to show the page on).
 */
export async function getGettingStarted(db: Db, tenantId: number): Promise<GettingStarted> {
  const { rows } = await sql<{
    profile: boolean;
    people: boolean;
    email: boolean;
    campaign: boolean;
    page: boolean;
    dismissed: boolean;
  }>`
    select
      exists (select 1 from church_profiles where user_id = ${tenantId}) as profile,
      exists (select 1 from contacts where user_id = ${tenantId}) as people,
      exists (select 1 from sending_domains where user_id = ${tenantId} and verified_at is not null) as email,
      (exists (select 1 from email_campaigns where user_id = ${tenantId})
        or exists (select 1 from sms_campaigns where user_id = ${tenantId})) as campaign,
      exists (select 1 from landing_pages where user_id = ${tenantId} and published) as page,
      exists (select 1 from church_settings where user_id = ${tenantId}
        and getting_started_dismissed_at is not null) as dismissed`.execute(db);
  const r = rows[0]!;
  const done = { ...r, home: r.profile && r.page };
  const steps = GETTING_STARTED_STEPS.map((key) => ({ key, done: done[key] }));
  const doneCount = steps.filter((s) => s.done).length;
  return {
    steps,
    firstVisit: doneCount === 0 && !r.dismissed,
    dismissed: r.dismissed,
    show: !r.dismissed && doneCount < steps.length,
  };
}

/** Hides the checklist for good (the church's settings row is made if it has none yet). */
export async function dismissGettingStarted(db: Db, tenantId: number): Promise<GettingStarted> {
  await db
    .insertInto('churchSettings')
    .values({ userId: tenantId, gettingStartedDismissedAt: new Date() })
    .onConflict((oc) =>
      oc.column('userId').doUpdateSet({
        gettingStartedDismissedAt: sql<Date>`coalesce(church_settings.getting_started_dismissed_at, now())`,
      }),
    )
    .execute();
  return getGettingStarted(db, tenantId);
}
