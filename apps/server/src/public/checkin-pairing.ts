import type { FastifyInstance } from 'fastify';
import { redeemPairingCode, STATION_COOKIE } from '@lampstand/api/server';
import { redeemPairingSchema } from '@lampstand/api/schemas/checkin/setup';
import type { AppDeps } from '../app-deps.js';

/** A station's cookie lasts a year; unpairing in Settings ends it at once. */
const STATION_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

/**
 * `POST /api/check-in/pair`: a browser redeems a station's one-time pairing code and receives the
 * station's cookie (httpOnly, SameSite=Strict). The code finds its station in any church, so this
 * reads with the system handle; the cookie then reaches only the check-in routes
 * (`checkinProcedure`). Refused from another site (login CSRF) by the CSRF check's `sameOrigin`;
 * wrong codes are limited per address and overall (429 with `Retry-After`, see redeemPairingCode).
 */
export async function checkinPairingRoutes(
  app: FastifyInstance,
  opts: { deps: AppDeps; secureCookies: boolean },
): Promise<void> {
  app.post('/api/check-in/pair', { config: { sameOrigin: true } }, async (req, reply) => {
    const input = redeemPairingSchema.parse(req.body ?? {});
    const { station, token } = await redeemPairingCode(opts.deps.db, { code: input.code, ip: req.ip });
    reply.setCookie(STATION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      secure: opts.secureCookies,
      maxAge: STATION_COOKIE_MAX_AGE_S,
    });
    return reply.code(200).send({
      ...station,
      pairedAt: station.pairedAt?.toISOString() ?? null,
      lastSeenAt: station.lastSeenAt?.toISOString() ?? null,
    });
  });
}
