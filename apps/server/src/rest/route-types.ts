import type { ProcedurePath, RestAccess, RestMeta } from '@lampstand/api';

export type { HttpMethod, RouteError, StreamContext } from '@lampstand/api';

/**
 * One REST route: a procedure's `.meta({ rest })` (packages/api/src/rest-meta.ts), with the
 * procedure's dotted path and the access its builder gives it (route-list.ts reads both).
 */
export interface RestRoute extends RestMeta {
  /** Dotted tRPC procedure path: `admin.impersonate`. */
  procedure: ProcedurePath;
  /** From the procedure's builder (publicProcedure, protectedProcedure, sessionProcedure, ...). */
  access: RestAccess;
}
