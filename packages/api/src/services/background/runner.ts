/**
 * The one runner of a worker process's background work. Each kind of work is a definition: its
 * name, how often it looks when nothing woke it, the notification channels that wake it, and one
 * round of its work (which claims what is due through the claim primitive, claim.ts, and does it).
 * The runner calls a round at start, again when it is woken (a PostgreSQL notification on one of
 * its channels, from any process, or `wake` in this one) and otherwise after `everyMs`; a round is
 * never run twice at once, and a wake during a round runs the next one as soon as it ends. A round
 * that fails is logged and tried again at its next turn. A new kind of background work is one
 * definition in the server's list (apps/server/src/jobs/runner.ts), not a loop of its own.
 */
export interface BackgroundWork {
  /** Its name, for `wake` and the log. */
  name: string;
  /** Without a wake, look again this long after a round (milliseconds). */
  everyMs: number;
  /** PostgreSQL channels whose notifications wake it. */
  channels?: readonly string[];
  /** One round. Returns when to look again (milliseconds; 0: at once), else after `everyMs`. */
  run(round: Round): Promise<number | void>;
  /** After the last round (the runner is stopping): finish what is in flight. */
  drain?(): Promise<void>;
}

export interface Round {
  /** What woke the runner since the last round: channel names, or the reasons given to `wake`. */
  woken: ReadonlySet<string>;
  /** Another round as soon as this one ends, or now if none is running (a slot came free). */
  wake: (why?: string) => void;
}

export interface BackgroundRunner {
  /** Run `name`'s next round now (work came in), instead of at its next turn. */
  wake(name: string, why?: string): void;
  /** A notification arrived on `channel`: every definition listening to it is woken. */
  notify(channel: string): void;
  /** No new round starts; the running ones end and each definition drains. */
  stop(): Promise<void>;
}

type Log = (msg: string, fields: { err: unknown }) => void;

class Loop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private woken = new Set<string>();
  private again = false;
  private stopped = false;

  constructor(
    readonly work: BackgroundWork,
    private readonly log: Log,
  ) {}

  wake(why?: string): void {
    if (this.stopped) return;
    if (why) this.woken.add(why);
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.round(), ms);
  }

  private round(): void {
    this.timer = null;
    if (this.running || this.stopped) return;
    const woken = this.woken;
    this.woken = new Set();
    this.again = false;
    this.running = (async () => {
      let next = this.work.everyMs;
      try {
        const after = await this.work.run({ woken, wake: (why) => this.wake(why) });
        if (typeof after === 'number') next = after;
      } catch (err) {
        this.log(`background work '${this.work.name}' failed (tried again)`, { err });
      }
      this.running = null;
      this.schedule(this.again ? 0 : next);
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    await this.work.drain?.();
  }
}

/** Starts every definition's first round now. */
export function startBackground(works: readonly BackgroundWork[], opts: { log?: Log } = {}): BackgroundRunner {
  const log: Log = opts.log ?? (() => {});
  const loops = new Map(works.map((w) => [w.name, new Loop(w, log)]));
  for (const loop of loops.values()) loop.schedule(0);
  return {
    wake(name, why) {
      loops.get(name)?.wake(why);
    },
    notify(channel) {
      for (const loop of loops.values()) if (loop.work.channels?.includes(channel)) loop.wake(channel);
    },
    async stop() {
      await Promise.all([...loops.values()].map((l) => l.stop()));
    },
  };
}
