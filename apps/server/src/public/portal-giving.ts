import type { FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import {
  AppError,
  portalCsrfToken,
  portalPath,
  changePortalSchedule,
  churchToday,
  getChurchSettings,
  portalGift,
  portalGifts,
  portalReceiptPdf,
  portalSchedules,
  portalStatementPdf,
  portalStatements,
  publicFunds,
  type PortalChurch,
  type PortalScheduleChange,
  type PortalSession,
} from '@lampstand/api/server';
import { cancelScheduleSection, giftReceiptSection, myGivingSection } from '@lampstand/api/render/portal-giving-html';
import { FREQUENCIES, type RecurringFrequency } from '@lampstand/api/schemas/giving';
import { renderNotFound } from '@lampstand/api/render/landing-page-html';
import { idParam, many, one, type Body, type PortalKit, type Req } from './portal-kit.js';

/** A member's own PDF (a receipt shown in the browser, a statement downloaded), never cached by a shared cache. */
function sendPdf(
  reply: FastifyReply,
  file: { fileName: string; pdf: Buffer | Uint8Array },
  as: 'inline' | 'attachment',
) {
  return reply
    .type('application/pdf')
    .header('cache-control', 'private, no-store')
    .header('content-disposition', `${as}; filename="${file.fileName}"`)
    .send(file.pdf);
}

/** 'My giving' in the members' portal: gifts, receipts, statements and recurring gifts. */
export function portalGivingRoutes(app: FastifyInstance, kit: PortalKit): void {
  const { db, secret, html, signedIn, page, noticeOf, deps } = kit;
  const givingPage = async (
    req: Req,
    reply: FastifyReply,
    c: PortalChurch,
    s: PortalSession,
    error?: { scheduleId: number; message: string },
  ) => {
    const [gifts, schedules, statements, funds, today] = await Promise.all([
      portalGifts(db, s),
      portalSchedules(db, s),
      portalStatements(db, s),
      publicFunds(db, c.userId),
      churchToday(db, c.userId, new Date()),
    ]);
    const content = myGivingSection(portalPath(c.handle), portalCsrfToken(secret, s), {
      gifts,
      schedules,
      statements,
      funds,
      today,
      locale: c.locale,
      error,
    });
    return html(reply, error ? 400 : 200, page(c, s, 'My giving', '/giving', content, noticeOf(req)));
  };
  app.get(
    '/c/:handle/me/giving',
    signedIn(false, (req, reply, c, s) => givingPage(req, reply, c, s)),
  );
  app.get(
    '/c/:handle/me/giving/gifts/:id',
    signedIn(false, async (req, reply, c, s) => {
      const gift = await portalGift(db, s, idParam(req.params.id));
      const settings = await getChurchSettings(db, c.userId);
      const content = giftReceiptSection(
        portalPath(c.handle),
        { churchName: c.churchName, address: settings.postalAddress, taxId: settings.taxId, locale: settings.locale },
        gift,
      );
      return html(reply, 200, page(c, s, 'Receipt', '/giving', content));
    }),
  );
  app.get(
    '/c/:handle/me/giving/gifts/:id/receipt',
    signedIn(false, async (req, reply, _c, s) => {
      return sendPdf(reply, await portalReceiptPdf(db, s, idParam(req.params.id)), 'inline');
    }),
  );
  app.get(
    '/c/:handle/me/giving/statements/:id',
    signedIn(false, async (req, reply, _c, s) => {
      return sendPdf(reply, await portalStatementPdf(db, s, idParam(req.params.id)), 'attachment');
    }),
  );
  app.get(
    '/c/:handle/me/giving/recurring/:id/cancel',
    signedIn(false, async (req, reply, c, s) => {
      const schedule = (await portalSchedules(db, s)).find((x) => x.id === idParam(req.params.id));
      if (!schedule) return html(reply, 404, renderNotFound());
      const content = cancelScheduleSection(portalPath(c.handle), portalCsrfToken(secret, s), schedule);
      return html(reply, 200, page(c, s, 'Cancel this recurring gift?', '/giving', content));
    }),
  );
  /** '12.50' → 1250 whole cents; null when it is not an amount. */
  const toCents = (v: string): number | null => {
    const m = /^\$?(\d{1,7})(?:\.(\d{0,2}))?$/.exec(v.trim().replace(/,/g, ''));
    return m ? Number(m[1]) * 100 + Number(`${m[2] ?? ''}00`.slice(0, 2)) : null;
  };
  const changeOf = (what: string, body: Body): PortalScheduleChange | string => {
    switch (what) {
      case 'pause':
        return { kind: 'pause', until: one(body.until) };
      case 'resume':
      case 'skip':
      case 'cancel':
        return { kind: what };
      case 'frequency': {
        const f = one(body.frequency);
        return (FREQUENCIES as readonly string[]).includes(f) && f !== 'one_time'
          ? { kind: 'frequency', frequency: f as RecurringFrequency }
          : 'Choose a frequency';
      }
      case 'lines': {
        const funds = many(body.fund);
        const amounts = many(body.amount);
        const lines: { fundId: number; amountCents: number }[] = [];
        for (let i = 0; i < Math.max(funds.length, amounts.length); i++) {
          const amount = (amounts[i] ?? '').trim();
          if (!amount) continue;
          const cents = toCents(amount);
          if (cents === null) return `Enter an amount like 25.00 (not ${amount})`;
          if (!/^\d{1,9}$/.test(funds[i] ?? '')) return 'Choose a fund for each amount';
          lines.push({ fundId: Number(funds[i]), amountCents: cents });
        }
        return { kind: 'lines', lines };
      }
      default:
        return 'Not found';
    }
  };
  app.post(
    '/c/:handle/me/giving/recurring/:id/:what',
    signedIn(true, async (req, reply, c, s) => {
      const id = idParam(req.params.id);
      const change = changeOf(req.params.what ?? '', (req.body ?? {}) as Body);
      if (change === 'Not found') return html(reply, 404, renderNotFound());
      try {
        if (typeof change === 'string') throw new AppError('BAD_REQUEST', change);
        await changePortalSchedule({ db, cardFee: deps.showUp.cardFee }, s, id, change);
      } catch (err) {
        let message: string | null = null;
        if (err instanceof ZodError) message = err.issues[0]?.message ?? 'Not valid';
        else if (err instanceof AppError && err.code === 'BAD_REQUEST') message = err.message;
        if (message === null) throw err;
        return givingPage(req, reply, c, s, { scheduleId: id, message });
      }
      const done = change.kind === 'cancel' ? 'gift-cancelled' : 'gift-saved';
      return reply.redirect(`${portalPath(c.handle)}/giving?done=${done}`, 303);
    }),
  );
}
