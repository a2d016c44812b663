// The planner's schemas, one file per area of the planner. Zod only: the planner's forms validate
// with this same code (its live item times are in shared/service-planner.ts).

export * from './service-planner/options.js';
export { keySchema, okIdSchema } from './service-planner/fields.js';
export * from './service-planner/plans.js';
export * from './service-planner/items.js';
export * from './service-planner/team.js';
export * from './service-planner/assignments.js';
export * from './service-planner/announce.js';
export * from './service-planner/songs.js';
export * from './service-planner/scheduling.js';
export * from './service-planner/templates.js';
export * from './service-planner/matrix.js';
export * from './service-planner/settings.js';
