/**
 * Turns per church within one process: at most `atOnce` of a church's jobs run together, up to
 * `waiting` more wait in order (each that ends hands its turn to the next), and past that `refuse()`
 * is thrown. Used for a church's calls (trpc.ts) and its QR renders (qr-codes/images.ts).
 */
export interface ChurchTurns {
  /** Wait for a turn; call what it returns (once is enough, more is harmless) when done. */
  take(tenantId: number): Promise<() => void>;
  /** A church's jobs now: running, and waiting for a turn. */
  now(tenantId: number): { running: number; waiting: number };
}

export function churchTurns(opts: { atOnce: number; waiting: number; refuse: () => Error }): ChurchTurns {
  const churches = new Map<number, { running: number; waiting: (() => void)[] }>();
  return {
    async take(tenantId) {
      let c = churches.get(tenantId);
      if (!c) churches.set(tenantId, (c = { running: 0, waiting: [] }));
      const turns = c;
      if (turns.running < opts.atOnce) turns.running++;
      else if (turns.waiting.length >= opts.waiting) throw opts.refuse();
      else await new Promise<void>((resolve) => turns.waiting.push(resolve));
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const next = turns.waiting.shift();
        if (next)
          next(); // the turn passes on: `running` stays the same
        else if (--turns.running === 0) churches.delete(tenantId);
      };
    },
    now(tenantId) {
      const c = churches.get(tenantId);
      return { running: c?.running ?? 0, waiting: c?.waiting.length ?? 0 };
    },
  };
}
