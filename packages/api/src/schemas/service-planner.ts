// The planner's schemas, one file per area of the planner. Zod and pure functions only: the
// planner's forms and its live item times use this same code.

export * from './service-planner/options.js';
export { minutesOf, hhmmOf, type ItemTimes, computeItemTimes } from './service-planner/times.js';
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
