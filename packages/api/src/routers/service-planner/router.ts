import { z } from 'zod';
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
  updateAssignmentSchema,
  updateItemSchema,
  updateItemTypeSchema,
  updateMemberSchema,
  updatePlanSchema,
  updatePositionSchema,
  updateSongSchema,
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
  addBlockout,
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

const plansRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/plans',
        summary: 'Service plans (when=upcoming|past|all): upcoming soonest first, then past',
        tag: 'Service planner',
      },
    })
    .input(listPlansSchema)
    .output(z.array(planSummarySchema))
    .query(({ ctx, input }) => listPlans(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/plans/{id}',
        summary: 'A plan with its items (computed start times), songs, team and announcement drafts',
        tag: 'Service planner',
      },
    })
    .input(planIdSchema)
    .output(planDetailSchema)
    .query(({ ctx, input }) => getPlan(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/plans',
        summary: 'Create a service plan',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(createPlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => createPlan(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/plans/{id}',
        summary: 'Change a plan (partial)',
        tag: 'Service planner',
      },
    })
    .input(updatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => updatePlan(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/plans/{id}',
        summary: 'Delete a plan with its items and team',
        tag: 'Service planner',
      },
    })
    .input(planIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePlan(ctx.db, ctx.tenantId, input)),
  duplicate: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/plans/{id}/duplicate',
        summary: 'Copy a plan (fields, items, songs and keys) to another date as a draft',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(duplicatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => duplicatePlan(ctx.db, ctx.tenantId, input)),
  sendRequests: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/plans/{id}/send-requests',
        summary: 'Email everyone scheduled and not yet asked, with Accept and Decline links',
        tag: 'Service planner',
      },
    })
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
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/plans/{planId}/announce',
        summary: 'Create announcement drafts from the plan (email and SMS campaigns; nothing is sent)',
        tag: 'Service planner',
        status: 201,
      },
    })
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
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/plans/{planId}/items',
        summary: 'Add an item at the end of a plan (optionally with a song and its key)',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(createItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => createItem(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/items/{id}',
        summary: 'Change an item (partial; song: null removes its song)',
        tag: 'Service planner',
      },
    })
    .input(updateItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => updateItem(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/items/{id}',
        summary: 'Delete an item',
        tag: 'Service planner',
      },
    })
    .input(itemIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItem(ctx.db, ctx.tenantId, input)),
  reorder: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/service-planner/plans/{planId}/items/order',
        summary: "Reorder a plan's items: itemIds lists every item once, in the new order",
        tag: 'Service planner',
      },
    })
    .input(reorderItemsSchema)
    .output(z.array(itemSchema))
    .mutation(({ ctx, input }) => reorderItems(ctx.db, ctx.tenantId, input)),
});

const itemTypesRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/item-types',
        summary: 'Item types (the defaults are added on first use)',
        tag: 'Service planner',
      },
    })
    .output(z.array(itemTypeSchema))
    .query(({ ctx }) => listItemTypes(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/item-types',
        summary: 'Create an item type',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(itemTypeFieldsSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => createItemType(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/item-types/{id}',
        summary: 'Change an item type (partial)',
        tag: 'Service planner',
      },
    })
    .input(updateItemTypeSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => updateItemType(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/item-types/{id}',
        summary: 'Delete an item type (its items keep their place)',
        tag: 'Service planner',
      },
    })
    .input(itemTypeIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItemType(ctx.db, ctx.tenantId, input)),
});

const songsRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/songs',
        summary: 'Songs, searched by title, artist or tag (search, tag)',
        tag: 'Service planner',
      },
    })
    .input(listSongsSchema)
    .output(z.array(songSchema))
    .query(({ ctx, input }) => listSongs(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/songs/{id}',
        summary: 'A song with when it was last used and uses in the last 90 days',
        tag: 'Service planner',
      },
    })
    .input(songIdSchema)
    .output(songSchema)
    .query(({ ctx, input }) => getSong(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/songs',
        summary: 'Create a song',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(createSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => createSong(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/songs/{id}',
        summary: 'Change a song (partial)',
        tag: 'Service planner',
      },
    })
    .input(updateSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => updateSong(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/songs/{id}',
        summary: 'Delete a song',
        tag: 'Service planner',
      },
    })
    .input(songIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteSong(ctx.db, ctx.tenantId, input)),
});

const membersRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/members',
        summary: 'Team members with their positions and blockout dates',
        tag: 'Service planner',
      },
    })
    .input(listMembersSchema)
    .output(z.array(memberSchema))
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/members/{id}',
        summary: 'A team member',
        tag: 'Service planner',
      },
    })
    .input(memberIdSchema)
    .output(memberSchema)
    .query(({ ctx, input }) => getMember(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/members',
        summary: 'Create a team member (a linked contact fills in empty details)',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(createMemberSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => createMember(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/members/{id}',
        summary: 'Change a team member (partial; positionIds replaces)',
        tag: 'Service planner',
      },
    })
    .input(updateMemberSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => updateMember(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/members/{id}',
        summary: 'Delete a team member',
        tag: 'Service planner',
      },
    })
    .input(memberIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteMember(ctx.db, ctx.tenantId, input)),
  addBlockout: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/members/{memberId}/blockouts',
        summary: 'Add blockout dates to a member',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(blockoutFieldsSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => addBlockout(ctx.db, ctx.tenantId, input)),
  deleteBlockout: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/blockouts/{id}',
        summary: 'Remove blockout dates',
        tag: 'Service planner',
      },
    })
    .input(blockoutIdSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => deleteBlockout(ctx.db, ctx.tenantId, input)),
});

const positionsRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/positions',
        summary: 'Team positions with their categories',
        tag: 'Service planner',
      },
    })
    .output(z.array(positionSchema))
    .query(({ ctx }) => listPositions(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/positions',
        summary: 'Create a team position',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(positionFieldsSchema)
    .output(positionSchema)
    .mutation(({ ctx, input }) => createPosition(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/positions/{id}',
        summary: 'Change a team position (partial)',
        tag: 'Service planner',
      },
    })
    .input(updatePositionSchema)
    .output(positionSchema)
    .mutation(({ ctx, input }) => updatePosition(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/positions/{id}',
        summary: 'Delete a team position',
        tag: 'Service planner',
      },
    })
    .input(positionIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePosition(ctx.db, ctx.tenantId, input)),
});

const assignmentsRouter = router({
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/plans/{planId}/assignments',
        summary: 'Schedule a member (409 when blocked out or already in the plan, unless force)',
        tag: 'Service planner',
        status: 201,
      },
    })
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => createAssignment(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta({
      rest: {
        method: 'PATCH',
        path: '/api/service-planner/assignments/{id}',
        summary: 'Change an assignment (position, item, status, notes)',
        tag: 'Service planner',
      },
    })
    .input(updateAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => updateAssignment(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/service-planner/assignments/{id}',
        summary: 'Remove an assignment',
        tag: 'Service planner',
      },
    })
    .input(assignmentIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteAssignment(ctx.db, ctx.tenantId, input)),
});

/** Reached from a scheduling request's link, without signing in: the token is the key. */
const requestsRouter = router({
  get: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/service-planner/requests/{token}',
        summary: 'What a scheduling request asks (no sign-in; reading never answers)',
        tag: 'Service planner',
      },
    })
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .query(({ ctx, input }) => getRequest(ctx.db, input)),
  respond: publicProcedure
    .input(respondSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, input)),
  accept: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/requests/{token}/accept',
        summary: 'Accept a scheduling request',
        tag: 'Service planner',
      },
    })
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'accept' })),
  decline: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/service-planner/requests/{token}/decline',
        summary: 'Decline a scheduling request',
        tag: 'Service planner',
      },
    })
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'decline' })),
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
});
