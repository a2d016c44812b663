import { z } from 'zod';
import { dateSchema } from './fields.js';

// ---- The scheduling matrix ----

/** The longest range the matrix shows. */
export const MAX_MATRIX_WEEKS = 52;
/** How an assignment's status reads in the matrix and the portal. */
export const MATRIX_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type MatrixStatus = (typeof MATRIX_STATUSES)[number];
export const MATRIX_STATUS_LABELS: Record<MatrixStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  declined: 'Declined',
};
export const matrixInputSchema = z
  .object({
    from: dateSchema('From'),
    to: dateSchema('To'),
    /** Only this team's positions and members (a team is a position category). */
    teamId: z.coerce
      .number({ error: 'Team ID must be a positive whole number' })
      .int('Team ID must be a positive whole number')
      .positive('Team ID must be a positive whole number')
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'To must be on or after From' });
    else if (Date.parse(`${v.to}T00:00:00Z`) - Date.parse(`${v.from}T00:00:00Z`) >= MAX_MATRIX_WEEKS * 7 * 86_400_000)
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `The matrix can show at most ${MAX_MATRIX_WEEKS} weeks`,
      });
  });
export const teamSchema = z.object({ id: z.number().int(), name: z.string() });
export const matrixEntrySchema = z.object({
  assignmentId: z.number().int(),
  planId: z.number().int(),
  planTitle: z.string(),
  positionId: z.number().int().nullable(),
  positionName: z.string().nullable(),
  /** The service time ('09:00'), or null for all of the plan's times. */
  serviceTime: z.string().nullable(),
  status: z.enum(MATRIX_STATUSES),
});
export type MatrixEntry = z.infer<typeof matrixEntrySchema>;
export const matrixSchema = z.object({
  from: z.string(),
  to: z.string(),
  team: teamSchema.nullable(),
  /** Every team of the church, for the filter. */
  teams: z.array(teamSchema),
  /** The columns: each date with a plan in the range, with its plans. */
  dates: z.array(
    z.object({
      date: z.string(),
      plans: z.array(z.object({ id: z.number().int(), title: z.string(), serviceTimes: z.array(z.string()) })),
    }),
  ),
  /** The rows: members (of the team), each cell one date of `dates` in the same order. */
  people: z.array(
    z.object({
      memberId: z.number().int(),
      name: z.string(),
      isActive: z.boolean(),
      cells: z.array(
        z.object({
          date: z.string(),
          /** Blocked out that day. */
          away: z.boolean(),
          /** The blockout's reason, when it has one. */
          awayReason: z.string().nullable(),
          entries: z.array(matrixEntrySchema),
        }),
      ),
    }),
  ),
  /**
   * The slots nobody fills: a plan's positions needed (from its template or an auto-schedule) that
   * nobody is scheduled for, each with why ('No one free: 2 blocked out, 1 at their monthly limit').
   */
  unfilled: z
    .array(
      z.object({
        date: z.string(),
        planId: z.number().int(),
        planTitle: z.string(),
        positionId: z.number().int(),
        positionName: z.string(),
        reason: z.string(),
      }),
    )
    .default([]),
});
export type ScheduleMatrix = z.infer<typeof matrixSchema>;
