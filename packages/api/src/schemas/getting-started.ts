import { z } from 'zod';

/** The dashboard's getting-started steps, in the order a new church meets them. */
export const GETTING_STARTED_STEPS = ['profile', 'people', 'email', 'campaign', 'home'] as const;
export type GettingStartedStep = (typeof GETTING_STARTED_STEPS)[number];

export const gettingStartedSchema = z.object({
  /**
   * Each step and whether the church's data shows it done: profile (its public profile saved, with
   * its handle), people (a contact), email (a verified sending domain), campaign (an email or text
   * campaign made), home (a page published on its church home).
   */
  steps: z.array(z.object({ key: z.enum(GETTING_STARTED_STEPS), done: z.boolean() })),
  /** Nothing done yet and the list never hidden: the dashboard says 'Welcome', not 'Welcome back'. */
  firstVisit: z.boolean(),
  /** The church hid the list. */
  dismissed: z.boolean(),
  /** Shown on the dashboard: not hidden, and a step still to do. */
  show: z.boolean(),
});
export type GettingStarted = z.output<typeof gettingStartedSchema>;
