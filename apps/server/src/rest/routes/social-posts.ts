import type { FastifyRequest } from 'fastify';
import type { RestRoute } from '../route-types.js';

const q = (req: FastifyRequest) => (req.query ?? {}) as Record<string, string | undefined>;

export const socialPostsRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/social-posts',
    procedure: 'socialPosts.list',
    summary: 'Social posts by scheduled time; ?from=&to= (ISO 8601) keep those from `from` up to before `to`',
    tag: 'Social posts',
    access: 'signed-in',
    input: (req) => ({ from: q(req).from || undefined, to: q(req).to || undefined }),
  },
  {
    method: 'POST',
    path: '/api/social-posts',
    procedure: 'socialPosts.create',
    summary: 'Schedule a social post (content, scheduledFor, platforms, status, imageUrl, linkUrl, tags)',
    tag: 'Social posts',
    access: 'signed-in',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/social-posts/{id}',
    procedure: 'socialPosts.get',
    summary: 'One social post, with why publishing failed',
    tag: 'Social posts',
    access: 'signed-in',
  },
  {
    method: 'PUT',
    path: '/api/social-posts/{id}',
    procedure: 'socialPosts.update',
    summary: 'Replace a post; a new time reschedules its publishing (409 while it is being published)',
    tag: 'Social posts',
    access: 'signed-in',
  },
  {
    method: 'DELETE',
    path: '/api/social-posts/{id}',
    procedure: 'socialPosts.delete',
    summary: 'Delete a post; it will not be published (409 while it is being published)',
    tag: 'Social posts',
    access: 'signed-in',
  },
  {
    method: 'GET',
    path: '/api/social-settings',
    procedure: 'socialPosts.settings',
    summary: 'The publishing webhook (whether a signing secret exists) and the calendar feed path',
    tag: 'Social posts',
    access: 'signed-in',
  },
  {
    method: 'PUT',
    path: '/api/social-settings',
    procedure: 'socialPosts.updateSettings',
    summary: 'Set or clear (null) the publishing webhook URL; the first time, the signing secret is returned once',
    tag: 'Social posts',
    access: 'signed-in',
  },
  {
    method: 'POST',
    path: '/api/social-settings/webhook-secret',
    procedure: 'socialPosts.regenerateWebhookSecret',
    summary: 'A new webhook signing secret, shown once',
    tag: 'Social posts',
    access: 'signed-in',
  },
  {
    method: 'POST',
    path: '/api/social-settings/feed-token',
    procedure: 'socialPosts.regenerateFeedToken',
    summary: 'A new calendar feed address (the old one stops working)',
    tag: 'Social posts',
    access: 'signed-in',
  },
];
