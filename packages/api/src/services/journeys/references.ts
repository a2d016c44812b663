import { sql, type Db } from '@lampstand/db';
import type { JourneyNames } from '../../shared/journeys.js';
import { notFound } from '../../errors.js';
import { churchTemplates } from '../templates/templates.js';
import type { JourneyDefinition } from './journey-definition.js';

/** What a definition refers to (lists, pages, projects, funds, groups, templates, staff): found, checked on save, named. */

export interface Refs {
  lists: Set<number>;
  pages: Set<number>;
  projects: Set<number>;
  funds: Set<number>;
  groups: Set<number>;
  templates: Set<number>;
  staff: Set<number>;
}

export function refsOf(d: JourneyDefinition): Refs {
  const r: Refs = {
    lists: new Set(),
    pages: new Set(),
    projects: new Set(),
    funds: new Set(),
    groups: new Set(),
    templates: new Set(),
    staff: new Set(),
  };
  const t = d.trigger;
  if (t.kind === 'list_added' && t.listId) r.lists.add(t.listId);
  if (t.kind === 'signup_confirmed' && t.pageId) r.pages.add(t.pageId);
  if (t.kind === 'donation_succeeded' && t.projectId) r.projects.add(t.projectId);
  if (t.kind === 'donation_succeeded' && t.fundId) r.funds.add(t.fundId);
  if ((t.kind === 'group_joined' || t.kind === 'group_join_requested' || t.kind === 'group_missed') && t.groupId)
    r.groups.add(t.groupId);
  if (d.goal?.kind === 'joined_list') r.lists.add(d.goal.listId);
  for (const s of d.steps) {
    if (s.kind === 'add_to_list' || s.kind === 'remove_from_list') r.lists.add(s.listId);
    if (s.kind === 'branch' && s.condition?.kind === 'on_list') r.lists.add(s.condition.listId);
    if (s.kind === 'email' && s.templateId) r.templates.add(s.templateId);
    if (s.kind === 'task' && s.assigneeContactId) r.staff.add(s.assigneeContactId);
    if (s.kind === 'notify') for (const c of s.contactIds) r.staff.add(c);
  }
  return r;
}

export interface Found {
  lists: Map<number, string>;
  pages: Map<number, string>;
  projects: Map<number, string>;
  /** Giving funds: name, and whether archived. */
  funds: Map<number, { name: string; archived: boolean }>;
  groups: Map<number, string>;
  /** Staff contacts: name, email, and whether they are marked service staff. */
  staff: Map<number, { name: string; email: string | null; isStaff: boolean }>;
}

export async function findRefs(db: Db, tenantId: number, r: Refs): Promise<Found> {
  const ids = (s: Set<number>) => [...s];
  const lists = r.lists.size
    ? await db
        .selectFrom('contactLists')
        .select(['id', 'name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.lists))
        .execute()
    : [];
  const pages = r.pages.size
    ? await db
        .selectFrom('landingPages')
        .select(['id', 'name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.pages))
        .execute()
    : [];
  const projects = r.projects.size
    ? await db
        .selectFrom('showUpProjects')
        .select(['id', 'title as name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.projects))
        .execute()
    : [];
  const funds = r.funds.size
    ? await db
        .selectFrom('funds')
        .select(['id', 'name', 'status'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.funds))
        .execute()
    : [];
  const groups = r.groups.size
    ? await db
        .selectFrom('groups')
        .select(['id', 'name'])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.groups))
        .execute()
    : [];
  const staff = r.staff.size
    ? await db
        .selectFrom('contacts')
        .select([
          'id',
          'firstName',
          'lastName',
          'email',
          sql<boolean>`coalesce((metadata->>'isServiceStaff')::boolean, false)`.as('isStaff'),
        ])
        .where('userId', '=', tenantId)
        .where('id', 'in', ids(r.staff))
        .execute()
    : [];
  return {
    lists: new Map(lists.map((l) => [l.id, l.name])),
    pages: new Map(pages.map((p) => [p.id, p.name])),
    projects: new Map(projects.map((p) => [p.id, String(p.name)])),
    funds: new Map(funds.map((x) => [x.id, { name: x.name, archived: x.status !== 'active' }])),
    groups: new Map(groups.map((g) => [g.id, g.name])),
    staff: new Map(
      staff.map((s) => [
        s.id,
        {
          name: `${s.firstName} ${s.lastName}`.trim() || s.email || 'Staff member',
          email: s.email,
          isStaff: !!s.isStaff,
        },
      ]),
    ),
  };
}

/** On save: a list, page, project, fund, group, template or staff member that is not the church's is a 404. */
export async function assertRefs(db: Db, tenantId: number, d: JourneyDefinition): Promise<void> {
  const r = refsOf(d);
  const f = await findRefs(db, tenantId, r);
  for (const id of r.lists) if (!f.lists.has(id)) throw notFound('List not found');
  for (const id of r.pages) if (!f.pages.has(id)) throw notFound('Landing page not found');
  for (const id of r.projects) if (!f.projects.has(id)) throw notFound('Project not found');
  for (const id of r.funds) if (!f.funds.has(id)) throw notFound('Fund not found');
  for (const id of r.groups) if (!f.groups.has(id)) throw notFound('Group not found');
  for (const id of r.staff) if (!f.staff.has(id)) throw notFound('Staff member not found');
  if (r.templates.size) {
    const mine = new Set((await churchTemplates(db, tenantId)).map((t) => t.id));
    for (const id of r.templates) if (!mine.has(id)) throw notFound('Template not found');
  }
}

/** The names a definition's description uses, from what `findRefs` found. */
export const namesOf = (f: Found): JourneyNames => ({
  list: (id) => f.lists.get(id),
  page: (id) => f.pages.get(id),
  project: (id) => f.projects.get(id),
  fund: (id) => f.funds.get(id)?.name,
  group: (id) => f.groups.get(id),
});
