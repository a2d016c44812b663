import type { FastifyRequest } from 'fastify';
import type { RestRoute } from '../route-types.js';

const p = (req: FastifyRequest) => (req.params ?? {}) as Record<string, string>;

/** Show Up: public reads (visitors and donors are not signed in), owner-only writes. */
export const showUpRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/show-up/projects',
    procedure: 'showUp.list',
    summary: 'A page of active projects: search, category (or urgent), lat/lng for nearest first, page, pageSize',
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/show-up/projects',
    procedure: 'showUp.create',
    summary: 'List a project (the signed-in church owns it)',
    tag: 'Show Up',
    access: 'signed-in',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/show-up/projects/{id}',
    procedure: 'showUp.get',
    summary: 'One project',
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'PATCH',
    path: '/api/show-up/projects/{id}',
    procedure: 'showUp.update',
    summary: 'Change a project (owner only; unsent fields keep their values)',
    tag: 'Show Up',
    access: 'signed-in',
  },
  {
    method: 'GET',
    path: '/api/show-up/projects/{id}/updates',
    procedure: 'showUp.updates',
    summary: "A project's updates, newest first",
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/show-up/projects/{projectId}/updates',
    procedure: 'showUp.createUpdate',
    summary: 'Post an update (owner only): title, content, images',
    tag: 'Show Up',
    access: 'signed-in',
    status: 201,
    input: (req) => ({ ...((req.body ?? {}) as object), projectId: p(req).projectId }),
  },
  {
    method: 'GET',
    path: '/api/show-up/projects/{id}/donations',
    procedure: 'showUp.supporters',
    summary: 'Completed gifts (supporters): anonymous ones without a name, never an email',
    tag: 'Show Up',
    access: 'public',
  },
];
