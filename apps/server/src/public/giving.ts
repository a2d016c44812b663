import type { FastifyInstance } from 'fastify';
import {
  AppError,
  churchOfHandle,
  churchToday,
  openRenewal,
  publicFunds,
  scheduleByToken,
} from '@lampstand/api/server';
import { handleSchema } from '@lampstand/api/schemas/church-profile';
import { renderGivePage, renderManagePage } from '@lampstand/api/render/give-page-html';
import { GIVE_PAY_SCRIPT } from '@lampstand/api/render/give-pay-script';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import { renderChurchNotFound } from '@lampstand/api/render/church-home-html';
import type { Db } from '@lampstand/db';
import type { ShowUpServices } from '@lampstand/api/server';
import type { AppDeps } from '../app-deps.js';

const GIVING_NOT_SET_UP = 'Online giving is not set up yet for this church.';

/** Why a church's giving page takes no gifts (the server has no payments, or the church is not set up), or null. */
export async function givingBlocked(db: Db, showUp: ShowUpServices, tenantId: number): Promise<string | null> {
  if (showUp.payments.mode === 'disabled') return 'Online giving is not available yet on this server.';
  if (!showUp.payments.connect) return null;
  const account = await db
    .selectFrom('churchStripeAccounts')
    .select('chargesEnabled')
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  return account?.chargesEnabled ? null : GIVING_NOT_SET_UP;
}

/**
 * A church's giving page: `/c/{handle}/give`, server-rendered like its home;
 * `?fund={id}` chooses a fund (a 'Give' block links here). Not cached: the fund list and the
 * church's giving status are read each time.
 */
export async function givingPublicRoutes(app: FastifyInstance, opts: { deps: AppDeps; publicUrl: string }) {
  const { db, showUp } = opts.deps;
  app.get<{ Params: { handle: string }; Querystring: { fund?: string; renew?: string } }>(
    '/c/:handle/give',
    async (req, reply) => {
      const notFound = () =>
        reply
          .code(404)
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send(renderChurchNotFound());
      const parsed = handleSchema.safeParse(req.params.handle);
      if (!parsed.success) return notFound();
      let church;
      try {
        church = await churchOfHandle(db, parsed.data);
      } catch (err) {
        if (err instanceof AppError && err.code === 'NOT_FOUND') return notFound();
        throw err;
      }
      if (church.handle !== req.params.handle) return reply.redirect(`/c/${church.handle}/give`, 301);
      const [funds, today, blocked, renewal] = await Promise.all([
        publicFunds(db, church.userId),
        churchToday(db, church.userId, new Date()),
        givingBlocked(db, showUp, church.userId),
        openRenewal(db, church.userId, req.query.renew),
      ]);
      // A recurring giver's link (`?renew=`): their own funds are offered even when off the page.
      for (const l of renewal?.lines ?? []) {
        if (!funds.some((f) => f.id === l.fundId)) funds.push({ id: l.fundId, name: l.fundName, description: null });
      }
      const wanted = Number(req.query.fund);
      return reply
        .header('cache-control', 'no-cache')
        .header('referrer-policy', 'strict-origin-when-cross-origin')
        .type('text/html; charset=utf-8')
        .send(
          renderGivePage({
            handle: church.handle,
            churchName: church.churchName,
            publicUrl: opts.publicUrl,
            funds,
            fundId: funds.some((f) => f.id === wanted) ? wanted : null,
            today,
            cardFee: showUp.cardFee,
            mode: showUp.payments.mode,
            publishableKey: showUp.payments.publishableKey,
            blocked,
            renew:
              req.query.renew === undefined
                ? undefined
                : renewal
                  ? { open: true, token: req.query.renew, ...renewal }
                  : { open: false },
          }),
        );
    },
  );

  // The giving page's second script, loaded when the donor presses Give (give-pay-script.ts).
  app.get('/give/pay.js', async (_req, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(GIVE_PAY_SCRIPT),
  );

  // The donor's link from a 'card declined' or 'confirm with your bank' email: update the card.
  app.get<{ Params: { token: string } }>('/give/manage/:token', async (req, reply) => {
    const s = await scheduleByToken(db, req.params.token);
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('x-robots-tag', 'noindex');
    if (!s) return reply.code(404).send(renderNotFound());
    return renderManagePage({
      token: req.params.token,
      churchName: s.churchName,
      donorName: s.donorName,
      frequency: s.frequency,
      status: s.status,
      totalCents: s.amountCents + s.feeCents,
      nextDate: s.nextDate,
      lastFailure: s.lastFailure,
      lines: s.lines,
      publishableKey: showUp.payments.publishableKey,
    });
  });
}
