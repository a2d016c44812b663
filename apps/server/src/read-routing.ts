import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasReplicas, readDb, type Db } from '@lampstand/db';
import { bearerToken } from './bearer-token.js';

/**
 * Read-your-writes with streaming replicas (docs/scaling.md). Reads that may be a
 * second behind go to a replica (`readDb`), except for whoever wrote in the last few seconds: a
 * browser gets a short-lived cookie with each write (so any of the app's processes sees it), an
 * integrator's key is remembered by the process that took the write. Without replicas nothing of
 * this runs.
 */
export const WROTE_COOKIE = 'ls_wrote';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Keys remembered at most (the oldest are dropped first): a bound on the process's memory. */
const MAX_KEYS = 10_000;

export class ReadRouting {
  /** sha256 of an API key's token → when its last write was answered (ms). */
  private readonly keyWrites = new Map<string, number>();
  /** The clock (ms); tests move it to pass the window. */
  now: () => number = Date.now;

  constructor(
    private readonly db: Db,
    private readonly windowSeconds: number,
  ) {}

  get enabled(): boolean {
    return hasReplicas(this.db);
  }

  /** Whether this request must read from the primary: its session or key wrote within the window. */
  wroteRecently(req: Pick<FastifyRequest, 'headers' | 'cookies'>, now = this.now()): boolean {
    const token = bearerToken(req);
    if (token !== undefined) {
      const at = this.keyWrites.get(digest(token));
      return at !== undefined && now - at < this.windowSeconds * 1000;
    }
    const at = Number(req.cookies?.[WROTE_COOKIE]);
    return Number.isFinite(at) && at > 0 && now - at < this.windowSeconds * 1000 && at <= now + 60_000;
  }

  /** The handle for reads that may lag: a replica's, or the primary's for a recent writer. */
  handleFor(req: Pick<FastifyRequest, 'headers' | 'cookies'>): Db {
    return this.enabled && !this.wroteRecently(req) ? readDb(this.db) : this.db;
  }

  /** Remembers every write request's author for the window (an `onSend` hook). */
  register(app: FastifyInstance): void {
    if (!this.enabled) return;
    app.addHook('onSend', async (req, reply, payload) => {
      if (READ_METHODS.has(req.method)) return payload;
      const now = this.now();
      const token = bearerToken(req);
      if (token !== undefined) {
        const key = digest(token);
        this.keyWrites.delete(key); // re-inserted last: the Map keeps insertion order, oldest first
        this.keyWrites.set(key, now);
        if (this.keyWrites.size > MAX_KEYS) this.keyWrites.delete(this.keyWrites.keys().next().value!);
      } else {
        reply.setCookie(WROTE_COOKIE, String(now), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          maxAge: this.windowSeconds,
        });
      }
      return payload;
    });
  }
}

function digest(token: string): string {
  return crypto.createHash('sha256').update(token).digest('base64url');
}
