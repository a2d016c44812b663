import type { AnyProcedure } from '@trpc/server';
import type { Meta, ProcedurePath } from '@lampstand/api';
import { appRouter } from '@lampstand/api/server';
import type { RestRoute } from './route-types.js';

export type { RestRoute, HttpMethod } from './route-types.js';

/**
 * The REST routes of the procedures of a router: one per `.meta({ rest })` entry, in the router's
 * order, with the access the procedure's builder set. A procedure with a route but no access (a
 * builder that does not name one) fails here, when the server starts.
 */
export function restRoutesOf(procedures: Record<string, AnyProcedure>): RestRoute[] {
  return Object.entries(procedures).flatMap(([path, procedure]) => {
    const meta = procedure._def.meta as Meta | undefined;
    if (!meta?.rest) return [];
    const { access } = meta;
    if (!access) throw new Error(`procedure ${path} has a REST route but its builder names no access`);
    const rows = Array.isArray(meta.rest) ? meta.rest : [meta.rest];
    return rows.map((rest) => ({ ...rest, procedure: path as ProcedurePath, access }));
  });
}

/**
 * The REST API for integrators, read from the app router: each procedure's `.meta({ rest })`
 * becomes a Fastify route that calls the procedure (plugin.ts), and a path in the OpenAPI document
 * at GET /api/openapi.json (openapi.ts). tRPC keeps the router's procedures in one flat record by
 * dotted path (`_def.procedures`, typed as the nested record).
 */
export const restRoutes: RestRoute[] = restRoutesOf(
  appRouter._def.procedures as unknown as Record<string, AnyProcedure>,
);
