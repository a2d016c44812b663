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

  // Giving
  {
    method: 'GET',
    path: '/api/show-up/config',
    procedure: 'showUp.config',
    summary:
      'Map tiles, and whether Donate Now can take a gift (giving mode, publishable key; ?projectId for its church)',
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/show-up/donations/prepare',
    procedure: 'showUp.prepareDonation',
    summary:
      'Start a gift: projectId, amount (USD), donorName, donorEmail, message, isAnonymous, source (lsrc), idempotencyKey; returns clientSecret',
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'POST',
    path: '/api/show-up/donations/demo-complete',
    procedure: 'showUp.completeDemoPayment',
    summary:
      'Demo mode only (no Stripe keys, not production): complete a prepared payment (paymentIntent, clientSecret)',
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'GET',
    path: '/api/show-up/donations/by-payment/{paymentIntent}',
    procedure: 'showUp.donationByPayment',
    summary: 'What the thank-you page shows: amount, createdAt, donorName, isAnonymous, projectId, receiptUrl',
    tag: 'Show Up',
    access: 'public',
  },
  {
    method: 'GET',
    path: '/api/show-up/projects/{id}/donations/report',
    procedure: 'showUp.ownerDonations',
    summary: "The owner's Donations tab: every gift with status and source, summed by source",
    tag: 'Show Up',
    access: 'signed-in',
  },
  {
    method: 'GET',
    path: '/api/show-up/projects/{id}/donations/export',
    procedure: 'showUp.exportDonations',
    summary: "The owner's donations as CSV",
    tag: 'Show Up',
    access: 'signed-in',
    format: 'csv',
  },
  {
    method: 'GET',
    path: '/api/giving',
    procedure: 'showUp.givingStatus',
    summary: "The church's Stripe account: not_connected, pending or ready",
    tag: 'Show Up',
    access: 'signed-in',
  },
  {
    method: 'POST',
    path: '/api/giving/connect',
    procedure: 'showUp.givingConnect',
    summary: "Connect the church's own Stripe account: an Express onboarding link",
    tag: 'Show Up',
    access: 'signed-in',
  },
  {
    method: 'POST',
    path: '/api/giving/refresh',
    procedure: 'showUp.givingRefresh',
    summary: "Ask Stripe for the church's account state now",
    tag: 'Show Up',
    access: 'signed-in',
  },
];
