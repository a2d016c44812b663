// Types only: the browser imports this entry. Server code imports '@lampstand/api/server'.
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouterType } from './root.js';

/** Named interface, so editors and tsc print `AppRouter` instead of expanding the whole type. */
export interface AppRouter extends AppRouterType {}
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type { SessionUser } from './schemas/auth.js';
export type { AdminUser } from './schemas/admin.js';
