import { sql, type Db } from '@lampstand/db';
import { PROPOSAL_FIELD_LABELS, type ProposalField } from '../../schemas/portal.js';
import type { BellRow, WaitingCounts } from '../../schemas/waiting.js';

/** Webhook deliveries that gave up longer ago than this no longer wait in the bell. */
const FAILED_WEBHOOK_DAYS = 30;
/** At most this many items of each kind in the bell, newest first. */
const BELL_PER_KIND = 10;

/** Who reads the bell: the signed-in account (an administrator acting as a church keeps their own mark). */
export interface BellReader {
  tenantId: number;
  readerId: number;
}

/** When `reader` last marked the bell read (the start of time before the first). */
const seenUpTo = (r: BellReader) =>
  sql<Date>`coalesce((select seen_up_to from bell_seen where user_id = ${r.tenantId} and reader_id = ${r.readerId}), '-infinity'::timestamptz)`;

/** The church's today, as a date, in its time zone (UTC when it never chose one). */
const churchToday = (tenantId: number) =>
  sql`(now() at time zone coalesce((select time_zone from church_settings where user_id = ${tenantId}), 'UTC'))::date`;

/**
 * Each kind of waiting item, as the bell lists it and counts it: the rows (church-scoped), the
 * moment each started waiting, and the columns the bell shows. The four definitions are the one
 * place that says what 'waits'; the counts and the list read the same conditions.
 */
const waits = (tenantId: number) => ({
  task: {
    from: sql`tasks t left join contacts c on c.id = t.contact_id and c.user_id = ${tenantId}`,
    where: sql`t.user_id = ${tenantId} and t.status = 'open' and t.assignee_contact_id is null`,
    at: sql`t.created_at`,
    id: sql`t.id`,
    title: sql`t.title`,
    detail: sql`coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), '')`,
    dueOn: sql`to_char(t.due_on, 'YYYY-MM-DD')`,
  },
  reply: {
    from: sql`conversations v left join contacts c on c.id = v.contact_id and c.user_id = ${tenantId}`,
    where: sql`v.user_id = ${tenantId} and v.status = 'open' and v.unread_count > 0`,
    at: sql`v.last_message_at`,
    id: sql`v.id`,
    title: sql`coalesce(nullif(trim(c.first_name || ' ' || c.last_name), ''), v.phone_e164)`,
    detail: sql`v.last_message_preview`,
    dueOn: sql`null`,
  },
  approval: {
    from: sql`profile_update_proposals p join contacts c on c.id = p.contact_id and c.user_id = ${tenantId}`,
    where: sql`p.user_id = ${tenantId} and p.status = 'pending'`,
    at: sql`p.created_at`,
    id: sql`p.id`,
    title: sql`trim(c.first_name || ' ' || c.last_name)`,
    // The fields' keys ('email,phone'), worded by `bellItems`.
    detail: sql`(select string_agg(k, ',' order by k) from jsonb_object_keys(p.changes) k)`,
    dueOn: sql`null`,
  },
  webhook: {
    from: sql`webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id and e.user_id = ${tenantId}`,
    where: sql`d.user_id = ${tenantId} and d.status = 'failed'
      and d.last_attempt_at > now() - make_interval(days => ${FAILED_WEBHOOK_DAYS})`,
    at: sql`d.last_attempt_at`,
    id: sql`d.id`,
    title: sql`'Could not reach ' || coalesce(nullif(e.description, ''), substring(e.url from '^[a-z]+://([^/:?#]+)'), e.url)`,
    detail: sql`'Gave up after ' || d.attempts || case when d.attempts = 1 then ' try' else ' tries' end`,
    dueOn: sql`null`,
  },
});

type Kind = keyof ReturnType<typeof waits>;
const KINDS: Kind[] = ['task', 'reply', 'approval', 'webhook'];

/**
 * The sidebar's badges and the bell's count, in one statement polled every minute: profile updates
 * to approve, unread texts in open conversations, the church account's open tasks due today or
 * earlier, and the bell's items newer than the reader's mark. Each count reads an index of its
 * table by church (tasks and proposals by status, conversations with unread texts, failed
 * deliveries: migration 0119).
 */
export async function waitingCounts(db: Db, reader: BellReader): Promise<WaitingCounts> {
  const w = waits(reader.tenantId);
  const t = reader.tenantId;
  const unread = KINDS.map(
    (k) => sql`(select count(*) from ${w[k].from} where ${w[k].where} and ${w[k].at} > seen.at)`,
  );
  const { rows } = await sql<WaitingCounts>`
    with seen as (select ${seenUpTo(reader)} as at)
    select
      (select count(*) from profile_update_proposals where user_id = ${t} and status = 'pending')::int as profile_updates,
      (select coalesce(sum(unread_count), 0) from conversations
        where user_id = ${t} and status = 'open' and unread_count > 0)::int as conversations,
      (select count(*) from tasks where user_id = ${t} and status = 'open' and assignee_contact_id is null
        and due_on <= ${churchToday(t)})::int as tasks_due,
      (${sql.join(unread, sql` + `)})::int as bell_unread
    from seen`.execute(db);
  return rows[0]!;
}

/** The bell: what waits for this reader, newest first, each read or unread against their mark. */
export async function bellItems(db: Db, reader: BellReader): Promise<{ items: BellRow[]; unread: number }> {
  const w = waits(reader.tenantId);
  const branches = KINDS.map(
    (
      k,
    ) => sql`(select ${k}::text as kind, ${w[k].id} as id, ${w[k].title} as title, coalesce(${w[k].detail}, '') as detail,
        ${w[k].at} as at, ${w[k].dueOn} as due_on, ${w[k].at} > seen.at as unread
      from ${w[k].from}, seen where ${w[k].where} order by ${w[k].at} desc limit ${BELL_PER_KIND})`,
  );
  const { rows } = await sql<BellRow>`
    with seen as (select ${seenUpTo(reader)} as at)
    select * from (${sql.join(branches, sql` union all `)}) items order by at desc, kind, id desc`.execute(db);
  const counts = await waitingCounts(db, reader);
  const items = rows.map((r) => ({
    ...r,
    id: Number(r.id),
    detail: r.kind === 'approval' ? fieldsChanged(r.detail) : r.detail,
  }));
  return { items, unread: counts.bellUnread };
}

/** 'Changes Email, Phone' from a proposal's changed keys ('email,phone'). */
function fieldsChanged(keys: string): string {
  const labels = keys
    .split(',')
    .filter(Boolean)
    .map((k) => PROPOSAL_FIELD_LABELS[k as ProposalField] ?? k);
  return labels.length ? `Changes ${labels.join(', ')}` : '';
}

/** 'Mark all as read': the reader's mark moves to now (never back). */
export async function markBellRead(db: Db, reader: BellReader): Promise<WaitingCounts> {
  await sql`
    insert into bell_seen (user_id, reader_id, seen_up_to) values (${reader.tenantId}, ${reader.readerId}, now())
    on conflict (user_id, reader_id) do update set seen_up_to = greatest(bell_seen.seen_up_to, excluded.seen_up_to)`.execute(
    db,
  );
  return waitingCounts(db, reader);
}
