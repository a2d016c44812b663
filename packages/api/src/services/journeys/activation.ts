import { sql, type Db } from '@lampstand/db';
import { countSuppressedContacts } from '../deliverability/suppressions.js';
import type { JourneyDefinition } from './journey-definition.js';
import { findRefs, refsOf } from './references.js';
import { isCheckinWelcome } from './runner/welcome.js';

/**
 * What stops a journey from running, each as 'Step 3: …', 'Trigger: …' or 'Goal: …' (empty when
 * it can run), and how many people its trigger could reach now (null when unknowable).
 */
export async function checkActivation(
  db: Db,
  tenantId: number,
  d: JourneyDefinition,
): Promise<{ reach: number | null; suppressed?: number; problems: string[] }> {
  const f = await findRefs(db, tenantId, refsOf(d));
  const problems: string[] = [];
  const t = d.trigger;
  if (t.kind === 'list_added') {
    if (!t.listId) problems.push('Trigger: choose a list');
    else if (!f.lists.has(t.listId)) problems.push('Trigger: the list was deleted');
  }
  if (t.kind === 'signup_confirmed' && t.pageId && !f.pages.has(t.pageId))
    problems.push('Trigger: the landing page was deleted');
  if (t.kind === 'donation_succeeded') {
    if (t.projectId && !f.projects.has(t.projectId)) problems.push('Trigger: the project was deleted');
    if (t.fundId && !f.funds.has(t.fundId)) problems.push('Trigger: the fund was deleted');
  }
  if (t.kind === 'keyword' && !t.keyword) problems.push('Trigger: choose a keyword');
  if (d.goal?.kind === 'joined_list' && !f.lists.has(d.goal.listId)) problems.push('Goal: the list was deleted');
  if (d.steps.length === 0) problems.push('The journey has no steps');
  const staffProblem = (id: number | null): string | null => {
    if (id === null) return null;
    const s = f.staff.get(id);
    if (!s) return 'the staff member was deleted';
    if (!s.isStaff) return `${s.name} is not marked as service staff`;
    if (!s.email) return `${s.name} has no email address`;
    return null;
  };
  const welcome = isCheckinWelcome(d);
  d.steps.forEach((s, i) => {
    const at = `Step ${i + 1}`;
    if ((s.kind === 'email' || s.kind === 'sms') && s.operational && !welcome)
      problems.push(`${at}: only a first check-in's welcome is sent without consent to campaigns`);
    switch (s.kind) {
      case 'email':
        if (!s.subject.trim()) problems.push(`${at}: the email has no subject`);
        if (!s.content.replace(/<[^>]*>/g, '').trim()) problems.push(`${at}: the email has no content`);
        break;
      case 'sms':
        if (!s.body.trim()) problems.push(`${at}: the text has no message`);
        break;
      case 'add_to_list':
      case 'remove_from_list':
        if (!f.lists.has(s.listId)) problems.push(`${at}: the list was deleted`);
        break;
      case 'branch':
        if (s.condition?.kind === 'on_list' && !f.lists.has(s.condition.listId))
          problems.push(`${at}: the list was deleted`);
        break;
      case 'task': {
        const p = staffProblem(s.assigneeContactId);
        if (p) problems.push(`${at}: ${p}`);
        break;
      }
      case 'notify':
        for (const id of s.contactIds) {
          const p = staffProblem(id);
          if (p) problems.push(`${at}: ${p}`);
        }
        break;
      default:
        break;
    }
  });
  const reach = await reachOf(db, tenantId, d);
  // With email steps, the reach's suppressed addresses are said before activating.
  const suppressed =
    reach !== null && d.steps.some((s) => s.kind === 'email') ? await suppressedInReach(db, tenantId, d) : undefined;
  return suppressed ? { reach, suppressed, problems } : { reach, problems };
}

async function suppressedInReach(db: Db, tenantId: number, d: JourneyDefinition): Promise<number | undefined> {
  const t = d.trigger;
  const who =
    t.kind === 'list_added' && t.listId
      ? sql<boolean>`c.id in (select contact_id from contacts_in_lists where user_id = ${tenantId} and list_id = ${t.listId})`
      : t.kind === 'date'
        ? sql<boolean>`c.date_of_birth is not null`
        : null;
  return who ? countSuppressedContacts(db, tenantId, who) : undefined;
}

async function reachOf(db: Db, tenantId: number, d: JourneyDefinition): Promise<number | null> {
  const t = d.trigger;
  if (t.kind === 'list_added' && t.listId) {
    const r = await db
      .selectFrom('contactsInLists')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', tenantId)
      .where('listId', '=', t.listId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  if (t.kind === 'date') {
    const r = await db
      .selectFrom('contacts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', tenantId)
      .where('dateOfBirth', 'is not', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  return null;
}
