import type { FastifyRequest } from 'fastify';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RestRoute {
  method: HttpMethod;
  /** OpenAPI-style path: `/api/admin/impersonate/{id}`. */
  path: string;
  /** Dotted tRPC procedure path: `admin.impersonate`. */
  procedure: string;
  summary: string;
  tag: string;
  /** Who may call it; documented in OpenAPI and enforced by the procedure's builder. */
  access: 'public' | 'signed-in' | 'admin';
  /** The procedure's input from the request; default: path params merged over the JSON body (or the query for GET). */
  input?: (req: FastifyRequest) => unknown;
  /** Status on success (default 200). */
  status?: number;
}

/**
 * The ONE table of the REST API for integrators. Each row becomes a Fastify route that calls the
 * tRPC procedure, and a path in the OpenAPI document at GET /api/openapi.json. Later features
 * add their rows here.
 */
export const restRoutes: RestRoute[] = [
  // Accounts
  { method: 'POST', path: '/api/register', procedure: 'auth.register', summary: 'Create a church account and sign in', tag: 'Accounts', access: 'public', status: 201 },
  { method: 'POST', path: '/api/login', procedure: 'auth.login', summary: 'Sign in with username and password', tag: 'Accounts', access: 'public' },
  { method: 'POST', path: '/api/logout', procedure: 'auth.logout', summary: 'End the session on the server', tag: 'Accounts', access: 'public' },
  { method: 'GET', path: '/api/user', procedure: 'auth.me', summary: 'The signed-in user (401 when not signed in)', tag: 'Accounts', access: 'signed-in' },

  // Platform administration
  { method: 'GET', path: '/api/admin/users', procedure: 'admin.users', summary: 'All church accounts', tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/impersonate/{id}', procedure: 'admin.impersonate', summary: 'Act as a church account', tag: 'Admin', access: 'admin' },
  { method: 'POST', path: '/api/admin/stop-impersonating', procedure: 'admin.stopImpersonating', summary: 'Return to the administrator account', tag: 'Admin', access: 'signed-in' },
];
