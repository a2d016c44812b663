import type { Db } from '@lampstand/db';
import type { OpenExport } from './services/contacts/export.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Client errors a route can answer besides 400 (and 401/403, which follow from `access`).
 * 503: an outside service the route needs is not configured (the AI model).
 */
export type RouteError = 404 | 409 | 413 | 429 | 503;

/**
 * Who may call a procedure; documented in OpenAPI and enforced by the procedure's builder, which
 * sets it (trpc.ts), never a procedure itself. 'signed-in': the session cookie or a church's API
 * key (`Authorization: Bearer`); 'session': the session cookie only (managing API keys); 'admin':
 * an administrator's session, never an API key; 'station': 'signed-in', or a paired check-in
 * station's cookie (the check-in routes a station uses).
 */
export type RestAccess = 'public' | 'signed-in' | 'session' | 'admin' | 'station';

/** What a streamed route needs: the database and the signed-in church. */
export interface StreamContext {
  /** The church's handle (`tenantDb`): row-level security shows it only the church's rows. */
  db: Db;
  tenantId: number;
}

/**
 * A procedure's REST route: `.meta({ rest: { ... } })` on the procedure, written through `restTag`
 * below (an array for a procedure answering at several paths). The REST shim (apps/server/src/rest) walks the app router, makes a
 * Fastify route of each and a path of the OpenAPI document at GET /api/openapi.json. The
 * procedure's input is always the path params merged over the JSON body (or over the query for GET
 * and DELETE): a different wire name is expressed in the zod schema, so the OpenAPI document and the
 * handler read the same thing.
 */
export interface RestMeta {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/admin/impersonate/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** Status on success (default 200). */
  status?: number;
  /** 'csv': the procedure returns { fileName, csv }, sent as a CSV download. 'image': the procedure
   * returns { contentType, base64, etag, fileName }, sent as the image's bytes with its ETag
   * (If-None-Match answers 304).
   * 'file': the procedure returns { fileName, contentType, text? , base64? }, sent as a download of
   * that type (`fileTypes` lists the types for the OpenAPI document). */
  format?: 'json' | 'csv' | 'image' | 'file';
  /** For 'file': the content types it may answer with. */
  fileTypes?: string[];
  /**
   * A JSON route that also answers as CSV when asked (`Accept: text/csv`): the procedure is then
   * called with `format: 'csv'` and returns { fileName, csv }.
   */
  csvWhenAccepted?: boolean;
  /** For 'image': the Cache-Control header, and whether it is sent as an attachment. */
  image?: { cacheControl: string; attachment?: boolean };
  /**
   * For a public GET whose answer is the same for every visitor: shared caches may keep it this many
   * seconds (with an ETag, If-None-Match answers 304); a signed-in asker (cookie or API key) gets
   * `private, no-cache`, and `Vary: Cookie, Authorization` tells the two apart.
   */
  publicCacheSeconds?: number;
  /** Largest request body in bytes (default 1 MiB, see apps/server/src/security/body-limits.ts). */
  bodyLimit?: number;
  /** Documented error statuses besides 400/401/403; 404 is implied by a path parameter. */
  errors?: RouteError[];
  /**
   * Answer with a stream instead of the procedure's value, for answers as large as a church's whole
   * address book (a `streamedProcedure`). The procedure still documents the route (its input and
   * output schemas make the OpenAPI document); the REST route checks the input with the procedure's
   * input schema, then writes the items as they come, with backpressure: for 'json', each item is
   * checked against the element of the procedure's array output and written into one JSON array;
   * for 'csv', the items are chunks of the file named `fileName`. `close()` runs when the answer ends
   * or the client leaves. Only for 'signed-in' routes.
   */
  stream?: (ctx: StreamContext, input: unknown) => Promise<OpenExport<unknown>>;
  /**
   * Answer with JSON text the service wrote (built by the database in one statement) instead of the
   * procedure's value, for pages too large to read into objects, check row by row and write again
   * (a year of every group's attendance). The procedure still documents the route and answers tRPC
   * with the same page as values, checked by its output schema (a test holds the two equal). The
   * REST route checks the input with the procedure's input schema, takes the church's call turn as
   * the procedure does, and sends the text. Only for 'signed-in' GET routes.
   */
  jsonText?: (ctx: StreamContext, input: unknown) => Promise<string>;
}

/** The meta of every procedure (`initTRPC.meta<Meta>()`); tRPC merges `.meta()` calls shallowly. */
export interface Meta {
  /** Set by the builder (publicProcedure 'public', protectedProcedure 'signed-in', ...). */
  access?: RestAccess;
  /** The procedure's REST route(s), if integrators may call it over REST. */
  rest?: RestMeta | RestMeta[];
}

/** A route's settings besides its method, path, summary and tag (`status`, `errors`, `format`, ...). */
export type RestOptions = Omit<RestMeta, 'method' | 'path' | 'summary' | 'tag'>;

/** A procedure's meta naming one REST route, made by `restTag`. */
export type RestRouteMeta = Meta & { rest: RestMeta };

type RouteOf = (path: string, summary: string, options?: RestOptions) => RestRouteMeta;

/**
 * The REST routes of one OpenAPI tag, a line each. In a router file, `const rest = restTag('QR
 * codes')`, then on a procedure `.meta(rest.get('/api/qr-codes/{id}', 'One QR code'))` or
 * `.meta(rest.post('/api/qr-codes', 'Create a QR code', { status: 201 }))`.
 */
export function restTag(tag: string): Record<'get' | 'post' | 'put' | 'patch' | 'delete', RouteOf> {
  const of =
    (method: HttpMethod): RouteOf =>
    (path, summary, options) => ({ rest: { method, path, summary, tag, ...options } });
  return { get: of('GET'), post: of('POST'), put: of('PUT'), patch: of('PATCH'), delete: of('DELETE') };
}
