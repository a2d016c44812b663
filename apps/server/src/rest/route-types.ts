import type { FastifyRequest } from 'fastify';
import type { ProcedurePath } from '@lampstand/api';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/admin/impersonate/{id}`. */
  path: string;
  /** Dotted tRPC procedure path: `admin.impersonate` (a wrong name fails typecheck). */
  procedure: ProcedurePath;
  summary: string;
  tag: string;
  /** Who may call it; documented in OpenAPI and enforced by the procedure's builder. */
  access: 'public' | 'signed-in' | 'admin';
  /** The procedure's input from the request; default: path params merged over the JSON body (or the query for GET). */
  input?: (req: FastifyRequest) => unknown;
  /** Status on success (default 200). */
  status?: number;
  /** 'csv': the procedure returns { fileName, csv }, sent as a CSV download. 'image': the procedure
   * returns { contentType, base64, etag, fileName }, sent as the image's bytes with its ETag
   * (If-None-Match answers 304). */
  format?: 'json' | 'csv' | 'image';
  /** For 'image': the Cache-Control header, and whether it is sent as an attachment. */
  image?: { cacheControl: string; attachment?: boolean };
}
