import { z } from 'zod';
import { plannerSettingsSchema, updatePlannerSettingsSchema } from '../../schemas/service-planner.js';
import { getPlannerSettings, updatePlannerSettings } from '../../services/service-planner/planner-settings.js';
import {
  announceResultSchema,
  announceSchema,
  assignmentIdSchema,
  assignmentSchema,
  blockoutFieldsSchema,
  blockoutIdSchema,
  createAssignmentSchema,
  createItemSchema,
  createMemberSchema,
  createPlanSchema,
  createSongSchema,
  duplicatePlanSchema,
  itemIdSchema,
  itemSchema,
  itemTypeFieldsSchema,
  itemTypeIdSchema,
  itemTypeSchema,
  listMembersSchema,
  listPlansSchema,
  listSongsSchema,
  memberIdSchema,
  memberSchema,
  okIdSchema,
  planDetailSchema,
  planIdSchema,
  planSummarySchema,
  positionFieldsSchema,
  positionIdSchema,
  positionSchema,
  reorderItemsSchema,
  requestDetailsSchema,
  requestTokenSchema,
  respondSchema,
  sendRequestsResultSchema,
  songIdSchema,
  songSchema,
  importSongsSchema,
  createTemplateSchema,
  templateIdSchema,
  planTemplateSchema,
  plansFromTemplateSchema,
  plansFromTemplateResultSchema,
  listBlockoutsSchema,
  churchBlockoutSchema,
  scheduleProposalInputSchema,
  scheduleProposalSchema,
  scheduleCommitInputSchema,
  scheduleCommitResultSchema,
  importSongsResultSchema,
  songFileSchema,
  songUsageInputSchema,
  songUsageOutputSchema,
  updateAssignmentSchema,
  updateItemSchema,
  updateItemTypeSchema,
  updateMemberSchema,
  updatePlanSchema,
  updatePositionSchema,
  updateSongSchema,
  matrixInputSchema,
  matrixSchema,
} from '../../schemas/service-planner.js';
import { announcePlan } from '../../services/service-planner/announce.js';
import {
  createAssignment,
  deleteAssignment,
  getRequest,
  respondToRequest,
  sendRequests,
  updateAssignment,
} from '../../services/service-planner/assignments.js';
import {
  createItemType,
  deleteItemType,
  listItemTypes,
  updateItemType,
} from '../../services/service-planner/item-types.js';
import { createItem, deleteItem, reorderItems, updateItem } from '../../services/service-planner/items.js';
import {
  createPlan,
  deletePlan,
  duplicatePlan,
  getPlan,
  listPlans,
  updatePlan,
} from '../../services/service-planner/plans.js';
import { createSong, deleteSong, getSong, listSongs, updateSong } from '../../services/service-planner/songs.js';
import {
  importChordProFiles,
  planChordProFile,
  planOpenLyricsZip,
  songChordProFile,
  songUsageReport,
} from '../../services/service-planner/song-files.js';
import { commitSchedule, proposeScheduleFor } from '../../services/service-planner/schedule.js';
import { scheduleMatrix } from '../../services/service-planner/matrix.js';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  plansFromTemplate,
} from '../../services/service-planner/templates.js';
import {
  addBlockout,
  listBlockouts,
  createMember,
  createPosition,
  deleteBlockout,
  deleteMember,
  deletePosition,
  getMember,
  listMembers,
  listPositions,
  updateMember,
  updatePosition,
} from '../../services/service-planner/team.js';
import { protectedProcedure, publicProcedure, router } from '../../trpc.js';
import { restTag } from '../../rest-meta.js';

const rest = restTag('Service planner');

const plansRouter = router({
  list: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/plans',
        'Service plans (when=upcoming|past|all): upcoming soonest first, then past',
      ),
    )
    .input(listPlansSchema)
    .output(z.array(planSummarySchema))
    .query(({ ctx, input }) => listPlans(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/plans/{id}',
        'A plan with its items (computed start times), songs, team and announcement drafts',
      ),
    )
    .input(planIdSchema)
    .output(planDetailSchema)
    .query(({ ctx, input }) => getPlan(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/plans', 'Create a service plan', { status: 201 }))
    .input(createPlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => createPlan(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/plans/{id}', 'Change a plan (partial)'))
    .input(updatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => updatePlan(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/plans/{id}', 'Delete a plan with its items and team'))
    .input(planIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePlan(ctx.db, ctx.tenantId, input)),
  duplicate: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{id}/duplicate',
        'Copy a plan (fields, items, songs and keys) to another date as a draft',
        { status: 201 },
      ),
    )
    .input(duplicatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => duplicatePlan(ctx.db, ctx.tenantId, input)),
  chordPro: protectedProcedure
    .meta(
      rest.get('/api/service-planner/plans/{id}/chordpro', "A plan's songs in order of service as one ChordPro file", {
        format: 'file',
        fileTypes: ['text/plain'],
      }),
    )
    .input(planIdSchema)
    .output(songFileSchema)
    .query(({ ctx, input }) => planChordProFile(ctx.db, ctx.tenantId, input)),
  openLyrics: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/plans/{id}/openlyrics',
        "A plan's songs as OpenLyrics files (OpenLP, FreeShow), one per song, in a zip",
        { format: 'file', fileTypes: ['application/zip'] },
      ),
    )
    .input(planIdSchema)
    .output(songFileSchema)
    .query(({ ctx, input }) => planOpenLyricsZip(ctx.db, ctx.tenantId, input)),
  sendRequests: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{id}/send-requests',
        'Email everyone scheduled and not yet asked, with Accept and Decline links',
      ),
    )
    .input(planIdSchema)
    .output(sendRequestsResultSchema)
    .mutation(({ ctx, input }) =>
      sendRequests(
        { db: ctx.db, email: ctx.services.email, jobs: ctx.services.jobs, config: ctx.services.delivery },
        ctx.tenantId,
        {
          planId: input.id,
        },
      ),
    ),
  announce: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{planId}/announce',
        'Create announcement drafts from the plan (email and SMS campaigns; nothing is sent)',
        { status: 201 },
      ),
    )
    .input(announceSchema)
    .output(announceResultSchema)
    .mutation(({ ctx, input }) =>
      announcePlan(
        {
          db: ctx.db,
          jobs: ctx.services.jobs,
          publicUrl: ctx.services.delivery.publicUrl,
          ai: ctx.services.ai,
          aiGenerationsPerHour: ctx.services.aiGenerationsPerHour,
          aiPerAddress: { ip: ctx.ip, perHour: ctx.services.limits.aiGenerationsPerAddressPerHour },
          landingPageChanged: ctx.services.landingPageChanged,
        },
        ctx.tenantId,
        input,
      ),
    ),
});

const itemsRouter = router({
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{planId}/items',
        'Add an item at the end of a plan (optionally with a song and its key)',
        { status: 201 },
      ),
    )
    .input(createItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => createItem(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/items/{id}', 'Change an item (partial; song: null removes its song)'))
    .input(updateItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => updateItem(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/items/{id}', 'Delete an item'))
    .input(itemIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItem(ctx.db, ctx.tenantId, input)),
  reorder: protectedProcedure
    .meta(
      rest.put(
        '/api/service-planner/plans/{planId}/items/order',
        "Reorder a plan's items: itemIds lists every item once, in the new order",
      ),
    )
    .input(reorderItemsSchema)
    .output(z.array(itemSchema))
    .mutation(({ ctx, input }) => reorderItems(ctx.db, ctx.tenantId, input)),
});

const itemTypesRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/item-types', 'Item types (the defaults are added on first use)'))
    .output(z.array(itemTypeSchema))
    .query(({ ctx }) => listItemTypes(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/item-types', 'Create an item type', { status: 201 }))
    .input(itemTypeFieldsSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => createItemType(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/item-types/{id}', 'Change an item type (partial)'))
    .input(updateItemTypeSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => updateItemType(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/item-types/{id}', 'Delete an item type (its items keep their place)'))
    .input(itemTypeIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItemType(ctx.db, ctx.tenantId, input)),
});

const songsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/songs', 'Songs, searched by title, artist or tag (search, tag)'))
    .input(listSongsSchema)
    .output(z.array(songSchema))
    .query(({ ctx, input }) => listSongs(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/service-planner/songs/{id}', 'A song with when it was last used and uses in the last 90 days'))
    .input(songIdSchema)
    .output(songSchema)
    .query(({ ctx, input }) => getSong(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/songs', 'Create a song', { status: 201 }))
    .input(createSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => createSong(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/songs/{id}', 'Change a song (partial)'))
    .input(updateSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => updateSong(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/songs/{id}', 'Delete a song'))
    .input(songIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteSong(ctx.db, ctx.tenantId, input)),
  importChordPro: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/songs/import',
        'Import ChordPro files (.cho, .chordpro, .pro; each at most 1 MB, several songs split at {new_song}) as songs',
        { status: 201, bodyLimit: 21 * 1024 * 1024 },
      ),
    )
    .input(importSongsSchema)
    .output(importSongsResultSchema)
    .mutation(({ ctx, input }) => importChordProFiles(ctx.db, ctx.tenantId, input)),
  chordPro: protectedProcedure
    .meta(
      rest.get('/api/service-planner/songs/{id}/chordpro', 'A song as a ChordPro file', {
        format: 'file',
        fileTypes: ['text/plain'],
      }),
    )
    .input(songIdSchema)
    .output(songFileSchema)
    .query(({ ctx, input }) => songChordProFile(ctx.db, ctx.tenantId, input)),
});

const templatesRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/templates', 'Plan templates'))
    .output(z.array(planTemplateSchema))
    .query(({ ctx }) => listTemplates(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/templates',
        'Save a plan as a template: its times, items with lengths and songs, and the positions its team fills',
        { status: 201, errors: [409] },
      ),
    )
    .input(createTemplateSchema)
    .output(planTemplateSchema)
    .mutation(({ ctx, input }) => createTemplate(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/templates/{id}', 'Delete a plan template (plans made from it stay)'))
    .input(templateIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.db, ctx.tenantId, input)),
  createPlans: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/templates/{id}/plans',
        'New draft plans from a template: on a date, or every week for N weeks (weeks, at most 52)',
        { status: 201 },
      ),
    )
    .input(plansFromTemplateSchema)
    .output(plansFromTemplateResultSchema)
    .mutation(({ ctx, input }) => plansFromTemplate(ctx.db, ctx.tenantId, input)),
});

const scheduleRouter = router({
  proposal: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/schedule/proposal',
        'Propose who serves where on the chosen plans and positions (nothing is saved); unfilled slots say why',
      ),
    )
    .input(scheduleProposalInputSchema)
    .output(scheduleProposalSchema)
    .mutation(({ ctx, input }) => proposeScheduleFor(ctx.db, ctx.tenantId, input)),
  commit: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/schedule/commit',
        'Save the (edited) proposal as assignments and email the requests',
        { status: 201 },
      ),
    )
    .input(scheduleCommitInputSchema)
    .output(scheduleCommitResultSchema)
    .mutation(({ ctx, input }) =>
      commitSchedule(
        { db: ctx.db, email: ctx.services.email, jobs: ctx.services.jobs, config: ctx.services.delivery },
        ctx.tenantId,
        input,
      ),
    ),
});

const matrixRouter = router({
  get: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/matrix',
        'The scheduling matrix: people × dates of the plans from–to (at most 52 weeks), each cell with its positions, service time and status (pending, accepted, declined); teamId: one team',
      ),
    )
    .input(matrixInputSchema)
    .output(matrixSchema)
    .query(({ ctx, input }) => scheduleMatrix(ctx.db, ctx.tenantId, input)),
});

const reportsRouter = router({
  songUsage: protectedProcedure
    .meta(
      rest.get(
        '/api/service-planner/reports/song-usage',
        'Songs used by the plans dated from–to, counted once per service time (JSON, or CSV with Accept: text/csv)',
        { csvWhenAccepted: true },
      ),
    )
    .input(songUsageInputSchema)
    .output(songUsageOutputSchema)
    .query(({ ctx, input }) => songUsageReport(ctx.readDb, ctx.tenantId, input)),
});

const membersRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/members', 'Team members with their positions and blockout dates'))
    .input(listMembersSchema)
    .output(z.array(memberSchema))
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(rest.get('/api/service-planner/members/{id}', 'A team member'))
    .input(memberIdSchema)
    .output(memberSchema)
    .query(({ ctx, input }) => getMember(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(
      rest.post('/api/service-planner/members', 'Create a team member (a linked contact fills in empty details)', {
        status: 201,
      }),
    )
    .input(createMemberSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => createMember(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/members/{id}', 'Change a team member (partial; positionIds replaces)'))
    .input(updateMemberSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => updateMember(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/members/{id}', 'Delete a team member'))
    .input(memberIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteMember(ctx.db, ctx.tenantId, input)),
  addBlockout: protectedProcedure
    .meta({
      rest: [
        rest.post('/api/service-planner/members/{memberId}/blockouts', 'Add blockout dates to a member', {
          status: 201,
        }).rest,
        rest.post(
          '/api/service-planner/blockouts',
          'Add blockout dates (memberId in the body): a day, a range, or a pattern recurring inside it',
          { status: 201 },
        ).rest,
      ],
    })
    .input(blockoutFieldsSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => addBlockout(ctx.db, ctx.tenantId, input)),
  blockouts: protectedProcedure
    .meta(rest.get('/api/service-planner/blockouts', "Every member's blockout dates (from, to: those overlapping)"))
    .input(listBlockoutsSchema)
    .output(z.array(churchBlockoutSchema))
    .query(({ ctx, input }) => listBlockouts(ctx.db, ctx.tenantId, input)),
  deleteBlockout: protectedProcedure
    .meta(rest.delete('/api/service-planner/blockouts/{id}', 'Remove blockout dates'))
    .input(blockoutIdSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => deleteBlockout(ctx.db, ctx.tenantId, input)),
});

const positionsRouter = router({
  list: protectedProcedure
    .meta(rest.get('/api/service-planner/positions', 'Team positions with their categories'))
    .output(z.array(positionSchema))
    .query(({ ctx }) => listPositions(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta(rest.post('/api/service-planner/positions', 'Create a team position', { status: 201 }))
    .input(positionFieldsSchema)
    .output(positionSchema)
    .mutation(({ ctx, input }) => createPosition(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/positions/{id}', 'Change a team position (partial)'))
    .input(updatePositionSchema)
    .output(positionSchema)
    .mutation(({ ctx, input }) => updatePosition(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/positions/{id}', 'Delete a team position'))
    .input(positionIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePosition(ctx.db, ctx.tenantId, input)),
});

const assignmentsRouter = router({
  create: protectedProcedure
    .meta(
      rest.post(
        '/api/service-planner/plans/{planId}/assignments',
        'Schedule a member (409 when blocked out or already in the plan, unless force)',
        { status: 201 },
      ),
    )
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => createAssignment(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/assignments/{id}', 'Change an assignment (position, item, status, notes)'))
    .input(updateAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => updateAssignment(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/service-planner/assignments/{id}', 'Remove an assignment'))
    .input(assignmentIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteAssignment(ctx.db, ctx.tenantId, input)),
});

/** Reached from a scheduling request's link, without signing in: the token is the key. */
const requestsRouter = router({
  get: publicProcedure
    .meta(
      rest.get(
        '/api/service-planner/requests/{token}',
        'What a scheduling request asks (no sign-in; reading never answers)',
      ),
    )
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .query(({ ctx, input }) => getRequest(ctx.db, input)),
  respond: publicProcedure
    .input(respondSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, input)),
  accept: publicProcedure
    .meta(rest.post('/api/service-planner/requests/{token}/accept', 'Accept a scheduling request'))
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'accept' })),
  decline: publicProcedure
    .meta(rest.post('/api/service-planner/requests/{token}/decline', 'Decline a scheduling request'))
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'decline' })),
});

/** Reminders before a plan, and how long teammates have to cover a slot (issue 31 §6–7). */
const plannerSettingsRouter = router({
  get: protectedProcedure
    .meta(rest.get('/api/service-planner/settings', 'Reminder days before a plan, and hours to find a substitute'))
    .output(plannerSettingsSchema)
    .query(({ ctx }) => getPlannerSettings(ctx.db, ctx.tenantId)),
  update: protectedProcedure
    .meta(rest.patch('/api/service-planner/settings', 'Change the reminder days or the hours to find a substitute'))
    .input(updatePlannerSettingsSchema)
    .output(plannerSettingsSchema)
    .mutation(({ ctx, input }) => updatePlannerSettings(ctx.db, ctx.tenantId, input)),
});

export const servicePlannerRouter = router({
  plans: plansRouter,
  items: itemsRouter,
  itemTypes: itemTypesRouter,
  songs: songsRouter,
  members: membersRouter,
  positions: positionsRouter,
  assignments: assignmentsRouter,
  requests: requestsRouter,
  reports: reportsRouter,
  schedule: scheduleRouter,
  templates: templatesRouter,
  matrix: matrixRouter,
  settings: plannerSettingsRouter,
});
