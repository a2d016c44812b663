import { SOURCE_TABLES } from './rules.js';

/**
 * Ids inside JSON (pages' content, journeys' definitions, service items, the activity log's
 * payloads, webhook payloads) follow their rows to the new church: a key names the table its id
 * is of (`listId`, `contactIds`, `{ list: { id } }`). An id the export does not have (a row deleted
 * before the export) is left as it was: it names nothing in the new church either.
 */

/** The new id of a row of `table`, by its id in the export. */
export type Lookup = (table: string, oldId: number) => number | undefined;

const SCALAR_KEYS: Record<string, string> = {
  contactId: 'contacts',
  assigneeContactId: 'contacts',
  listId: 'contact_lists',
  pageId: 'landing_pages',
  landingPageId: 'landing_pages',
  projectId: 'show_up_projects',
  fundId: 'funds',
  journeyId: 'journeys',
  planId: 'service_plans',
  servicePlanId: 'service_plans',
  giftId: 'gifts',
  donationId: 'gifts',
  scheduleId: 'gift_schedules',
  batchId: 'gift_batches',
  deliveryId: 'deliveries',
  assignmentId: 'service_plan_assignments',
  offerId: 'substitute_offers',
  proposalId: 'profile_update_proposals',
  enrollmentId: 'journey_enrollments',
  conversationId: 'conversations',
  uploadId: 'uploads',
  logoUploadId: 'uploads',
  coverUploadId: 'uploads',
  songId: 'songs',
  teamId: 'service_teams',
  positionId: 'team_positions',
  teamMemberId: 'team_members',
  serviceItemTypeId: 'service_item_types',
  itemTypeId: 'service_item_types',
  taskId: 'tasks',
  qrCodeId: 'qr_codes',
  runId: 'giving_statement_runs',
  childId: 'contact_children',
  groupId: 'child_groups',
  eventId: 'events',
};

const ARRAY_KEYS: Record<string, string> = {
  contactIds: 'contacts',
  listIds: 'contact_lists',
  memberIds: 'team_members',
  positionIds: 'team_positions',
  uploadIds: 'uploads',
  fundIds: 'funds',
};

/** Objects that name a row by its `id` (`{ list: { id, name } }` in the activity log). */
const OBJECT_KEYS: Record<string, string> = {
  contact: 'contacts',
  merged: 'contacts',
  list: 'contact_lists',
  page: 'landing_pages',
  project: 'show_up_projects',
  fund: 'funds',
  journey: 'journeys',
  plan: 'service_plans',
  gift: 'gifts',
  song: 'songs',
  team: 'service_teams',
  position: 'team_positions',
};

export interface RemapContext {
  lookup: Lookup;
  /** The table a `campaign` object names (email or SMS, by the event's type). */
  campaignTable: string | null;
  /** Rewrites an uploaded file's address (old church's folder → the new one's) in any text. */
  text: (s: string) => string;
}

const mapId = (ctx: RemapContext, table: string, v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) ? (ctx.lookup(table, v) ?? v) : v;

export function remapJson(value: unknown, ctx: RemapContext): unknown {
  if (typeof value === 'string') return ctx.text(value);
  if (Array.isArray(value)) return value.map((v) => remapJson(v, ctx));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const scalar = SCALAR_KEYS[key];
    const array = ARRAY_KEYS[key];
    const named =
      key === 'campaign'
        ? ctx.campaignTable
        : key === 'source' && v && typeof v === 'object' && 'kind' in v
          ? (SOURCE_TABLES[String(v.kind)] ?? null)
          : (OBJECT_KEYS[key] ?? null);
    if (scalar) out[key] = mapId(ctx, scalar, v);
    else if (array && Array.isArray(v)) out[key] = v.map((x) => mapId(ctx, array, x));
    else if (named && v && typeof v === 'object' && !Array.isArray(v) && 'id' in v) {
      const inner = remapJson(v, ctx) as Record<string, unknown>;
      out[key] = { ...inner, id: mapId(ctx, named, v.id) };
    } else out[key] = remapJson(v, ctx);
  }
  return out;
}
