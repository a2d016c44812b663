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
    .input(listPlansSchema)
    .output(z.array(planSummarySchema))
    .query(({ ctx, input }) => listPlans(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .input(planIdSchema)
    .output(planDetailSchema)
    .query(({ ctx, input }) => getPlan(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .input(createPlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => createPlan(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => updatePlan(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(planIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePlan(ctx.db, ctx.tenantId, input)),
  duplicate: protectedProcedure
    .input(duplicatePlanSchema)
    .output(planDetailSchema)
    .mutation(({ ctx, input }) => duplicatePlan(ctx.db, ctx.tenantId, input)),
  sendRequests: protectedProcedure
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
    .input(createItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => createItem(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateItemSchema)
    .output(itemSchema)
    .mutation(({ ctx, input }) => updateItem(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(itemIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItem(ctx.db, ctx.tenantId, input)),
  reorder: protectedProcedure
    .input(reorderItemsSchema)
    .output(z.array(itemSchema))
    .mutation(({ ctx, input }) => reorderItems(ctx.db, ctx.tenantId, input)),
});

const itemTypesRouter = router({
  list: protectedProcedure.output(z.array(itemTypeSchema)).query(({ ctx }) => listItemTypes(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .input(itemTypeFieldsSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => createItemType(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateItemTypeSchema)
    .output(itemTypeSchema)
    .mutation(({ ctx, input }) => updateItemType(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(itemTypeIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteItemType(ctx.db, ctx.tenantId, input)),
});

const songsRouter = router({
  list: protectedProcedure
    .input(listSongsSchema)
    .output(z.array(songSchema))
    .query(({ ctx, input }) => listSongs(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .input(songIdSchema)
    .output(songSchema)
    .query(({ ctx, input }) => getSong(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .input(createSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => createSong(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateSongSchema)
    .output(songSchema)
    .mutation(({ ctx, input }) => updateSong(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(songIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteSong(ctx.db, ctx.tenantId, input)),
});

const membersRouter = router({
  list: protectedProcedure
    .input(listMembersSchema)
    .output(z.array(memberSchema))
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.tenantId, input)),
  get: protectedProcedure
    .input(memberIdSchema)
    .output(memberSchema)
    .query(({ ctx, input }) => getMember(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .input(createMemberSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => createMember(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateMemberSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => updateMember(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(memberIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteMember(ctx.db, ctx.tenantId, input)),
  addBlockout: protectedProcedure
    .input(blockoutFieldsSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => addBlockout(ctx.db, ctx.tenantId, input)),
  deleteBlockout: protectedProcedure
    .input(blockoutIdSchema)
    .output(memberSchema)
    .mutation(({ ctx, input }) => deleteBlockout(ctx.db, ctx.tenantId, input)),
});

const positionsRouter = router({
  list: protectedProcedure.output(z.array(positionSchema)).query(({ ctx }) => listPositions(ctx.db, ctx.tenantId)),
  create: protectedProcedure
    .input(positionFieldsSchema)
    .output(positionSchema)
    .mutation(({ ctx, input }) => createPosition(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updatePositionSchema)
    .output(positionSchema)
    .mutation(({ ctx, input }) => updatePosition(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(positionIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deletePosition(ctx.db, ctx.tenantId, input)),
});

const assignmentsRouter = router({
  create: protectedProcedure
    .input(createAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => createAssignment(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .input(updateAssignmentSchema)
    .output(assignmentSchema)
    .mutation(({ ctx, input }) => updateAssignment(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .input(assignmentIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteAssignment(ctx.db, ctx.tenantId, input)),
});

/** Reached from a scheduling request's link, without signing in: the token is the key. */
const requestsRouter = router({
  get: publicProcedure
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .query(({ ctx, input }) => getRequest(ctx.db, input)),
  respond: publicProcedure
    .input(respondSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, input)),
  accept: publicProcedure
    .input(requestTokenSchema)
    .output(requestDetailsSchema)
    .mutation(({ ctx, input }) => respondToRequest(ctx.db, { token: input.token, response: 'accept' })),
  decline: publicProcedure
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
