import { z } from 'zod';
import { restTag } from '../../rest-meta.js';
import {
  blockoutFieldsSchema,
  blockoutIdSchema,
  churchBlockoutSchema,
  createMemberSchema,
  listBlockoutsSchema,
  listMembersSchema,
  memberIdSchema,
  memberSchema,
  okIdSchema,
  positionFieldsSchema,
  positionIdSchema,
  positionSchema,
  updateMemberSchema,
  updatePositionSchema,
} from '../../schemas/service-planner.js';
import {
  addBlockout,
  createMember,
  createPosition,
  deleteBlockout,
  deleteMember,
  deletePosition,
  getMember,
  listBlockouts,
  listMembers,
  listPositions,
  updateMember,
  updatePosition,
} from '../../services/service-planner/team.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Service planner');

export const membersRouter = router({
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

export const positionsRouter = router({
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
