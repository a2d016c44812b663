import type { FastifyInstance } from 'fastify';
import {
  acceptCover,
  alreadyCoveredMessage,
  AppError,
  getCoverOffer,
  getRequest,
  longDate,
  offerStateFor,
  PUBLIC_ACTOR,
  requestSubstitute,
  respondToRequest,
  shortTime,
  actingAs,
} from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';
import { escapeHtml } from '@lampstand/api/render/html';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>body{font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;background:#f8f9fa;color:#1f2937;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.1);padding:32px;max-width:460px;margin:16px}
h1{font-size:22px;margin:0 0 12px}p,dd{line-height:1.6}dl{margin:0 0 20px}dt{font-weight:600;font-size:14px;color:#4b5563}dd{margin:0 0 8px}
form{display:inline-block;margin:0 8px 8px 0}button{border:0;border-radius:8px;padding:10px 18px;font-size:16px;cursor:pointer}
.accept{background:#364fc7;color:#fff}.decline{background:#fff;color:#c92a2a;border:1px solid #c92a2a}
button:focus-visible{outline:3px solid #364fc7;outline-offset:2px}</style></head><body><main>${body}</main></body></html>`;
}

/** After a decline: offer the slot to free teammates. */
const askForm = (token: string) =>
  `<p>Would you like Lampstand to ask teammates who are free to cover for you?</p>` +
  `<form method="post" action="/serve/${escapeHtml(token)}/substitute"><button class="accept" type="submit">Ask my teammates to cover</button></form>`;

const NOT_FOUND = page('Link not found', '<h1>Link not found</h1><p>This scheduling link is not valid.</p>');

/** 'Sunday, May 12, 2030 at 9:00 AM': the assignment's own service time when it has one, else the plan's start. */
function when(r: { date: string; startTime: string | null; serviceTime?: string | null; locale: string }): string {
  const time = r.serviceTime ?? r.startTime;
  const o = { locale: r.locale };
  return `${longDate(r.date, o)}${time ? ` at ${shortTime(time, o)}` : ''}`;
}

/**
 * The page a scheduling request's Accept and Decline links open. Opening it never answers (mail
 * scanners follow links); the person presses a button, which POSTs the answer.
 */
export async function servicePlannerPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db } = opts.deps;
  // A serving link's holder acts for the events its answers record.
  const publicDeps = { ...opts.deps, db: actingAs(db, PUBLIC_ACTOR) };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  const validToken = (t: string) => /^[A-Za-z0-9_-]{20,100}$/.test(t);

  app.get<{ Params: { token: string }; Querystring: { answer?: string } }>('/serve/:token', async (req, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    const r = validToken(req.params.token) ? await getRequest(db, { token: req.params.token }).catch(() => null) : null;
    if (!r) return reply.code(404).send(NOT_FOUND);
    const status =
      r.status === 'confirmed'
        ? '<p><strong>You have accepted.</strong> You can still change your answer.</p>'
        : r.status === 'declined'
          ? '<p><strong>You have declined.</strong> You can still change your answer.</p>'
          : '';
    const acceptFirst = req.query.answer !== 'decline';
    const offer = r.status === 'declined' ? await offerStateFor(db, { token: req.params.token }) : null;
    if (offer?.state === 'covered')
      return page(
        alreadyCoveredMessage(offer.by),
        `<h1>${escapeHtml(alreadyCoveredMessage(offer.by))}</h1><p>Hi ${escapeHtml(r.memberName)}, ${escapeHtml(offer.by)} covers ${escapeHtml(r.planTitle)} on ${escapeHtml(when(r))} for you. Thank you for letting us know.</p>`,
      );
    const ask =
      offer?.state === 'asking'
        ? '<p>Your teammates are being asked to cover for you.</p>'
        : r.status === 'declined' && r.positionName
          ? askForm(req.params.token)
          : '';
    const accept = `<form method="post"><input type="hidden" name="answer" value="accept"><button class="accept" type="submit">Accept: I can serve</button></form>`;
    const decline = `<form method="post"><input type="hidden" name="answer" value="decline"><button class="decline" type="submit">Decline: I can't serve</button></form>`;
    return page(
      'Can you serve?',
      `<h1>Can you serve?</h1><p>Hi ${escapeHtml(r.memberName)}, ${escapeHtml(r.churchName)} has scheduled you:</p>` +
        `<dl><dt>Service</dt><dd>${escapeHtml(r.planTitle)}</dd><dt>When</dt><dd>${escapeHtml(when(r))}</dd>` +
        (r.location ? `<dt>Where</dt><dd>${escapeHtml(r.location)}</dd>` : '') +
        (r.positionName ? `<dt>Position</dt><dd>${escapeHtml(r.positionName)}</dd>` : '') +
        `</dl>${status}${ask}${acceptFirst ? accept + decline : decline + accept}`,
    );
  });

  app.post<{ Params: { token: string } }>('/serve/:token', async (req, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    const answer = ((req.body ?? {}) as Record<string, string>).answer;
    if (answer !== 'accept' && answer !== 'decline')
      return reply
        .code(400)
        .send(page('Choose an answer', '<h1>Choose an answer</h1><p>Please press Accept or Decline.</p>'));
    if (!validToken(req.params.token)) return reply.code(404).send(NOT_FOUND);
    try {
      const r = await respondToRequest(actingAs(db, PUBLIC_ACTOR), { token: req.params.token, response: answer });
      return page(
        'Thank you',
        answer === 'accept'
          ? `<h1>Thank you!</h1><p>You are confirmed for ${escapeHtml(r.planTitle)} on ${escapeHtml(when(r))}. ${escapeHtml(r.churchName)} can see your answer.</p>`
          : `<h1>Thanks for letting us know</h1><p>You have declined ${escapeHtml(r.planTitle)} on ${escapeHtml(when(r))}. ${escapeHtml(r.churchName)} can see your answer.</p>` +
              (r.positionName ? askForm(req.params.token) : ''),
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return reply.code(404).send(NOT_FOUND);
      if (err instanceof AppError && err.code === 'CONFLICT')
        return reply.code(409).send(page(err.message, `<h1>${escapeHtml(err.message)}</h1>`));
      throw err;
    }
  });

  // 'Ask my teammates to cover' after a decline: the slot is offered to free teammates.
  app.post<{ Params: { token: string } }>('/serve/:token/substitute', async (req, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    if (!validToken(req.params.token)) return reply.code(404).send(NOT_FOUND);
    try {
      const r = await requestSubstitute(publicDeps, { token: req.params.token });
      return page(
        'Teammates asked',
        `<h1>${r.offeredTo ? 'Teammates asked' : 'Nobody is free'}</h1><p>${escapeHtml(r.message)}</p>`,
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return reply.code(404).send(NOT_FOUND);
      if (err instanceof AppError && (err.code === 'BAD_REQUEST' || err.code === 'CONFLICT'))
        return reply
          .code(err.code === 'CONFLICT' ? 409 : 400)
          .send(page('Not asked', `<h1>Not asked</h1><p>${escapeHtml(err.message)}</p>`));
      throw err;
    }
  });

  // A teammate's 'Can you cover …?' link: opening it shows the slot; Accept is a button (a POST).
  app.get<{ Params: { token: string } }>('/serve/cover/:token', async (req, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    const o = validToken(req.params.token)
      ? await getCoverOffer(db, { token: req.params.token }).catch(() => null)
      : null;
    if (!o) return reply.code(404).send(NOT_FOUND);
    const details =
      `<dl><dt>Service</dt><dd>${escapeHtml(o.planTitle)}</dd><dt>When</dt><dd>${escapeHtml(when(o))}</dd>` +
      (o.location ? `<dt>Where</dt><dd>${escapeHtml(o.location)}</dd>` : '') +
      (o.positionName ? `<dt>Position</dt><dd>${escapeHtml(o.positionName)}</dd>` : '') +
      `</dl>`;
    const state =
      o.status === 'filled'
        ? o.mine
          ? '<p><strong>You are covering this slot.</strong> Thank you!</p>'
          : '<p><strong>This slot is filled:</strong> another teammate said yes first. Thank you!</p>'
        : o.status !== 'open' || o.expiresAt.getTime() <= Date.now()
          ? '<p><strong>This offer has closed.</strong></p>'
          : `<form method="post"><button class="accept" type="submit">Accept</button></form>`;
    return page(
      o.question,
      `<h1>${escapeHtml(o.question)}</h1><p>Hi ${escapeHtml(o.memberName)},</p>${details}${state}`,
    );
  });

  app.post<{ Params: { token: string } }>('/serve/cover/:token', async (req, reply) => {
    reply.type('text/html').header('cache-control', 'no-store');
    if (!validToken(req.params.token)) return reply.code(404).send(NOT_FOUND);
    try {
      const { outcome } = await acceptCover(publicDeps, { token: req.params.token });
      const o = await getCoverOffer(db, { token: req.params.token });
      const slot = `${o.positionName ?? 'this slot'} at ${o.planTitle} on ${when(o)}`;
      const body = {
        accepted: `<h1>Thank you!</h1><p>You are confirmed for ${escapeHtml(slot)}. ${escapeHtml(o.churchName)} can see your answer.</p>`,
        filled: `<h1>Already covered</h1><p>Another teammate said yes first: ${escapeHtml(slot)} is filled. Thank you!</p>`,
        closed: `<h1>This offer has closed</h1><p>${escapeHtml(slot)} is no longer offered.</p>`,
        unavailable: `<h1>You are not free then</h1><p>You are scheduled that day, away, or at your most times this month, so ${escapeHtml(slot)} was not given to you.</p>`,
      }[outcome];
      return reply.code(outcome === 'accepted' ? 200 : 409).send(page('Cover', body));
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') return reply.code(404).send(NOT_FOUND);
      throw err;
    }
  });
}
