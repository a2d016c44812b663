import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  longDate,
  shortTime,
  offerSwapFromPortal,
  swappableDates,
  type PortalChurch,
  type PortalSession,
} from '@lampstand/api/server';
import { escapeHtml as e } from '@lampstand/api/render/html';
import { csrfField } from '@lampstand/api/render/portal-html';
import type { AppDeps } from '../app-deps.js';

type Req = FastifyRequest<{ Params: Record<string, string> }>;
type SignedIn = (
  write: boolean,
  handler: (req: Req, reply: FastifyReply, c: PortalChurch, s: PortalSession) => Promise<unknown>,
) => (req: Req, reply: FastifyReply) => Promise<unknown>;

/** What the members' portal (portal.ts) lends this page: its sign-in guard, layout and paths. */
export interface PortalPageKit {
  signedIn: SignedIn;
  page: (c: PortalChurch, s: PortalSession, title: string, active: string, content: string, notice?: string) => string;
  html: (reply: FastifyReply, status: number, body: string) => unknown;
  csrf: (s: PortalSession) => string;
  base: (c: PortalChurch) => string;
}

const time = (hhmm: string | null, locale?: string) => (hhmm ? ` at ${shortTime(hhmm, { locale })}` : '');

/**
 * 'Swap a date' in the members' portal: the dates the person (or their household)
 * serves, each with 'Offer to teammates'; the slot is offered to the free teammates as a declined
 * one is, and they keep it until one accepts. At `/c/{handle}/me/swaps`, linked from 'My schedule'.
 */
export function portalSwapRoutes(app: FastifyInstance, deps: AppDeps, kit: PortalPageKit): void {
  const { db } = deps;
  const render = async (reply: FastifyReply, c: PortalChurch, s: PortalSession, notice?: string, status = 200) => {
    const dates = await swappableDates(db, s, { today: new Date().toISOString().slice(0, 10) });
    const rows = dates.map((d) => {
      const when = `${longDate(d.date, { locale: c.locale })}${time(d.startTime ?? d.serviceTimes[0] ?? null, c.locale)}`;
      const action = d.offered
        ? '<p class="muted">Your teammates are being asked.</p>'
        : d.positionName
          ? `<form method="post" action="${e(kit.base(c))}/swaps/${d.id}">${csrfField(kit.csrf(s))}<button class="btn" type="submit">Offer to teammates</button></form>`
          : '<p class="muted">No position: ask your leader to swap this date.</p>';
      return (
        `<section class="card" aria-labelledby="s${d.id}"><h2 id="s${d.id}">${e(d.planTitle)}</h2>` +
        `<p>${e(when)}${d.location ? `, ${e(d.location)}` : ''}<br>${e(d.memberName)}${d.positionName ? `: ${e(d.positionName)}` : ''}</p>${action}</section>`
      );
    });
    const content = rows.length
      ? `<p>Can't make a date? Offer it to the teammates who are free: the first to accept takes it, and you serve until then.</p>${rows.join('')}`
      : '<p class="muted">You are not scheduled on any coming date.</p>';
    return kit.html(reply, status, kit.page(c, s, 'Swap a date', '/swaps', content, notice));
  };
  app.get(
    '/c/:handle/me/swaps',
    kit.signedIn(false, (_req, reply, c, s) => render(reply, c, s)),
  );
  app.post(
    '/c/:handle/me/swaps/:id',
    kit.signedIn(true, async (req, reply, c, s) => {
      const id = /^\d{1,9}$/.test(req.params.id ?? '') ? Number(req.params.id) : -1;
      try {
        const r = await offerSwapFromPortal({ db, jobs: deps.jobs }, s, { assignmentId: id });
        return await render(reply, c, s, r.message);
      } catch (err) {
        // Asked already, or declined meanwhile: the page again, saying so.
        if (err instanceof AppError && (err.code === 'CONFLICT' || err.code === 'BAD_REQUEST'))
          return render(reply, c, s, err.message, err.code === 'CONFLICT' ? 409 : 400);
        throw err;
      }
    }),
  );
}
