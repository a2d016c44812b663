import { router } from '../../trpc.js';
import { assignmentsRouter, requestsRouter } from './assignments.js';
import { itemTypesRouter, itemsRouter } from './items.js';
import { matrixRouter, scheduleRouter } from './scheduling.js';
import { membersRouter, positionsRouter } from './team.js';
import { plannerSettingsRouter } from './settings.js';
import { plansRouter } from './plans.js';
import { reportsRouter, songsRouter } from './songs.js';
import { templatesRouter } from './templates.js';

// The planner's API: one router per area of the planner, merged under `servicePlanner`.

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
