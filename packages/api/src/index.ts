// Types only: the browser imports this entry. Server code imports '@lampstand/api/server'.
import type { AnyProcedure, inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouterType } from './root.js';

/** Named interface, so editors and tsc print `AppRouter` instead of expanding the whole type. */
export interface AppRouter extends AppRouterType {}
export type RouterInputs = inferRouterInputs<AppRouter>;
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type { SessionUser } from './schemas/auth.js';
export type { AdminUser } from './schemas/admin.js';
export type { HttpMethod, Meta, RestAccess, RestMeta, RouteError, StreamContext } from './rest-meta.js';

type PathsOf<R, Prefix extends string = ''> = {
  [K in keyof R & string]: R[K] extends AnyProcedure
    ? `${Prefix}${K}`
    : R[K] extends object
      ? PathsOf<R[K], `${Prefix}${K}.`>
      : never;
}[keyof R & string];

/** Every procedure's dotted path ('contacts.get'): the REST routes are typed with it. */
export type ProcedurePath = PathsOf<AppRouter['_def']['record']>;
