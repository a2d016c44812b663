import type { Db } from '@lampstand/db';
import { loadVersion, type JourneyDefinition } from '../definitions.js';
import type { Church } from './types.js';

/** Reads shared by the visits of one run. */
export class RunCache {
  private defs = new Map<string, Promise<JourneyDefinition>>();
  private churches = new Map<number, Promise<Church>>();
  constructor(private db: Db) {}
  /** Outside the visit's transaction (a pool connection of its own). */
  definition(journeyId: number, version: number) {
    const key = `${journeyId}:${version}`;
    let d = this.defs.get(key);
    if (!d) {
      d = this.db
        .selectFrom('journeys')
        .select(['id', 'name'])
        .where('id', '=', journeyId)
        .executeTakeFirstOrThrow()
        .then((j) => loadVersion(this.db, j, version));
      this.defs.set(key, d);
    }
    return d;
  }
  church(userId: number) {
    let c = this.churches.get(userId);
    if (!c) {
      c = this.db
        .selectFrom('users as u')
        .leftJoin('churchSettings as s', 's.userId', 'u.id')
        .select(['u.churchName', 'u.email', 'u.dailyRecipientLimit', 'u.emailVerifiedAt', 's.timeZone'])
        .where('u.id', '=', userId)
        .executeTakeFirstOrThrow()
        .then((r) => ({
          timeZone: r.timeZone ?? 'UTC',
          churchName: r.churchName,
          accountEmail: r.email,
          unlimited: r.dailyRecipientLimit === null && r.emailVerifiedAt !== null,
        }));
      this.churches.set(userId, c);
    }
    return c;
  }
}
