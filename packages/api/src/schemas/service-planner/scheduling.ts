import { z } from 'zod';
import { idSchema } from '../common.js';

// ---- Auto-scheduling ----

export const MAX_PROPOSAL_PLANS = 52;
export const scheduleProposalInputSchema = z.object({
  planIds: z
    .array(idSchema('Plan ID'))
    .min(1, 'Choose at least one plan')
    .max(MAX_PROPOSAL_PLANS, `A proposal can cover at most ${MAX_PROPOSAL_PLANS} plans`)
    .transform((ids) => [...new Set(ids)]),
  /** The positions to fill on each plan; a position listed twice needs two people. */
  positionIds: z
    .array(idSchema('Position ID'))
    .min(1, 'Choose at least one position')
    .max(50, 'A proposal can fill at most 50 positions a plan'),
});
const slotShape = {
  planId: z.number().int(),
  planTitle: z.string(),
  date: z.string(),
  positionId: z.number().int(),
  positionName: z.string(),
};
export const scheduleProposalSchema = z.object({
  assignments: z.array(z.object({ ...slotShape, memberId: z.number().int(), memberName: z.string() })),
  unfilled: z.array(z.object({ ...slotShape, reason: z.string() })),
  /**
   * Who is blocked out on a chosen plan's date, of the active members qualified for a chosen
   * position: the matrix shows them away, and picking one warns ('Maria is away 12–19 May').
   */
  away: z.array(
    z.object({
      memberId: z.number().int(),
      memberName: z.string(),
      date: z.string(),
      reason: z.string().nullable(),
      warning: z.string(),
    }),
  ),
});
export type ScheduleProposal = z.infer<typeof scheduleProposalSchema>;
export const scheduleCommitInputSchema = z.object({
  assignments: z
    .array(
      z.object({
        planId: idSchema('Plan ID'),
        positionId: idSchema('Position ID'),
        memberId: idSchema('Member ID'),
      }),
    )
    .min(1, 'There is nobody to schedule')
    .max(5000, 'At most 5000 assignments at once'),
  /** Email the requests at once (through the delivery engine). */
  sendRequests: z.boolean().default(true),
  /**
   * Every slot the proposal was for, filled or not: each plan then needs at least these positions,
   * so a slot nobody could fill stays in the matrix as not filled, with why.
   */
  slots: z
    .array(z.object({ planId: idSchema('Plan ID'), positionId: idSchema('Position ID') }))
    .max(5000, 'At most 5000 slots at once')
    .default([]),
});
export const scheduleCommitResultSchema = z.object({
  created: z.number().int(),
  plans: z.number().int(),
  /** Requests queued, and to how many people. */
  requests: z.number().int(),
  people: z.number().int(),
  skippedNoEmail: z.array(z.string()),
  /** Who was scheduled on a day they are blocked out, in words ('Maria is away 10–19 May'). */
  away: z.array(z.string()),
});
