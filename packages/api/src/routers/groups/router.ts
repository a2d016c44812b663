import { z } from 'zod';
import { restTag } from '../../rest-meta.js';
import {
  createGroupSchema,
  groupDetailSchema,
  groupIdSchema,
  groupListSchema,
  listGroupsSchema,
  okIdSchema,
  updateGroupSchema,
} from '../../schemas/groups.js';
import {
  addMembersSchema,
  churchAttendanceOutputSchema,
  churchAttendanceSchema,
  createMeetingSchema,
  createdMeetingSchema,
  decideRequestSchema,
  groupMessageResultSchema,
  groupMessageSchema,
  joinRequestSchema,
  listMeetingsSchema,
  listMembersSchema,
  meetingSchema,
  memberSchema,
  moveMembersSchema,
  moveResultSchema,
  recordAttendanceSchema,
  recordedMeetingSchema,
  removeMemberSchema,
} from '../../schemas/groups-people.js';
import { createGroup, deleteGroup, getGroup, listGroups, updateGroup } from '../../services/groups/groups.js';
import { addGroupMembers, listMembers, moveGroupMembers, removeGroupMember } from '../../services/groups/members.js';
import {
  churchAttendance,
  churchAttendanceJson,
  createMeeting,
  listMeetings,
  recordAttendance,
} from '../../services/groups/meetings.js';
import { decideJoinRequest, listJoinRequests } from '../../services/groups/join.js';
import { sendGroupMessage } from '../../services/groups/messages.js';
import { protectedProcedure, router } from '../../trpc.js';

const rest = restTag('Groups');

/** Staff: groups, their people, join requests, meetings and attendance (docs/groups.md). */
export const groupsRouter = router({
  list: protectedProcedure
    .meta(
      rest.get('/api/groups', 'Groups with filters (type, weekday, leader, trend); CSV with Accept: text/csv', {
        csvWhenAccepted: true,
      }),
    )
    .input(listGroupsSchema)
    .output(groupListSchema)
    .query(({ ctx, input }) => listGroups(ctx.readDb, ctx.tenantId, input)),
  get: protectedProcedure
    .meta(
      rest.get('/api/groups/{id}', 'A group with its recent meetings, attendance rate and who missed the last three'),
    )
    .input(groupIdSchema)
    .output(groupDetailSchema)
    .query(({ ctx, input }) => getGroup(ctx.db, ctx.tenantId, input)),
  create: protectedProcedure
    .meta(rest.post('/api/groups', 'Create a group (leaderContactIds join as its leaders)', { status: 201 }))
    .input(createGroupSchema)
    .output(groupDetailSchema)
    .mutation(({ ctx, input }) => createGroup(ctx.db, ctx.tenantId, input)),
  update: protectedProcedure
    .meta(rest.patch('/api/groups/{id}', 'Change a group (partial)'))
    .input(updateGroupSchema)
    .output(groupDetailSchema)
    .mutation(({ ctx, input }) => updateGroup(ctx.db, ctx.tenantId, input)),
  delete: protectedProcedure
    .meta(rest.delete('/api/groups/{id}', 'Delete a group with its meetings and attendance'))
    .input(groupIdSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => deleteGroup(ctx.db, ctx.tenantId, input)),
  members: protectedProcedure
    .meta(rest.get('/api/groups/{id}/members', "A group's roster with each member's attendance"))
    .input(listMembersSchema)
    .output(z.array(memberSchema))
    .query(({ ctx, input }) => listMembers(ctx.db, ctx.tenantId, input)),
  addMembers: protectedProcedure
    .meta(
      rest.post('/api/groups/{id}/members', 'Add people to a group, or change their role (answers the roster)', {
        status: 201,
        errors: [409],
      }),
    )
    .input(addMembersSchema)
    .output(z.array(memberSchema))
    .mutation(({ ctx, input }) => addGroupMembers(ctx.db, ctx.tenantId, input)),
  removeMember: protectedProcedure
    .meta(rest.delete('/api/groups/{id}/members/{contactId}', 'Someone leaves the group (kept in its history)'))
    .input(removeMemberSchema)
    .output(okIdSchema)
    .mutation(({ ctx, input }) => removeGroupMember(ctx.db, ctx.tenantId, input)),
  moveMembers: protectedProcedure
    .meta(rest.post('/api/groups/{id}/members/move', 'Move or copy members to another group', { errors: [409] }))
    .input(moveMembersSchema)
    .output(moveResultSchema)
    .mutation(({ ctx, input }) => moveGroupMembers(ctx.db, ctx.tenantId, input)),
  requests: protectedProcedure
    .meta(rest.get('/api/groups/{id}/requests', 'Pending requests to join the group'))
    .input(groupIdSchema)
    .output(z.array(joinRequestSchema))
    .query(({ ctx, input }) => listJoinRequests(ctx.db, ctx.tenantId, input)),
  decideRequest: protectedProcedure
    .meta(rest.post('/api/groups/{id}/requests/{requestId}', 'Approve or decline a request to join', { errors: [409] }))
    .input(decideRequestSchema)
    .output(joinRequestSchema)
    .mutation(({ ctx, input }) => decideJoinRequest(ctx.db, ctx.tenantId, input)),
  meetings: protectedProcedure
    .meta(rest.get('/api/groups/{id}/meetings', "A group's meetings (from, to) with who came"))
    .input(listMeetingsSchema)
    .output(z.array(meetingSchema))
    .query(({ ctx, input }) => listMeetings(ctx.db, ctx.tenantId, input)),
  createMeeting: protectedProcedure
    .meta(
      rest.post('/api/groups/{id}/meetings', "A day's meeting (none: today's), made once: asked again, the same", {
        status: 201,
      }),
    )
    .input(createMeetingSchema)
    .output(createdMeetingSchema)
    .mutation(({ ctx, input }) => createMeeting(ctx.db, ctx.tenantId, input)),
  recordAttendance: protectedProcedure
    .meta(
      rest.put(
        '/api/groups/{id}/meetings/{meetingId}/attendance',
        "Replace a meeting's attendance; a clientKey already recorded changes nothing",
      ),
    )
    .input(recordAttendanceSchema)
    .output(recordedMeetingSchema)
    .mutation(({ ctx, input }) => recordAttendance(ctx.db, ctx.tenantId, input)),
  sendMessage: protectedProcedure
    .meta(
      rest.post(
        '/api/groups/{id}/messages',
        "Email or text the group's current members (each through the contact rule), as the church",
        { status: 201, errors: [429] },
      ),
    )
    .input(groupMessageSchema)
    .output(groupMessageResultSchema)
    .mutation(({ ctx, input }) =>
      sendGroupMessage({ db: ctx.db, jobs: ctx.services.jobs }, ctx.tenantId, {
        ...input,
        sender: { contactId: null, name: ctx.effectiveUser.churchName },
      }),
    ),
  attendance: protectedProcedure
    .meta(
      rest.get('/api/groups/attendance', "Every meeting's attendance of many groups from–to, paged by meeting", {
        jsonText: ({ db, tenantId }, input) =>
          churchAttendanceJson(db, tenantId, input as z.output<typeof churchAttendanceSchema>),
      }),
    )
    .input(churchAttendanceSchema)
    .output(churchAttendanceOutputSchema)
    .query(({ ctx, input }) => churchAttendance(ctx.readDb, ctx.tenantId, input)),
});
