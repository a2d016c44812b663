/**
 * Another church's client (lib/neighbour.ts) in a process of its own, so that what it times is the
 * API's answer and not the event loop of whatever else the benchmark runs. Started with
 * BENCH_API_URL, BENCH_DATABASE_URL, BENCH_NEIGHBOUR_GIFTS and BENCH_NEIGHBOUR_PACE_MS; prints one
 * JSON line when set up, then answers the parent's messages: `baseline`, `during`, `stop` (with a
 * label; answered with the result).
 */
import { createDb } from '@lampstand/db';
import { startNeighbour } from './neighbour.js';

type Message = { cmd: 'baseline' } | { cmd: 'during' } | { cmd: 'stop'; label: string };

const db = createDb(process.env.BENCH_DATABASE_URL!, { max: 2 });
const neighbour = await startNeighbour(process.env.BENCH_API_URL!, db, {
  gifts: Number(process.env.BENCH_NEIGHBOUR_GIFTS ?? 0) || undefined,
  paceMs: Number(process.env.BENCH_NEIGHBOUR_PACE_MS ?? 100),
});
let probe: ReturnType<typeof neighbour.during> | null = null;
process.on('message', (m: Message) => {
  void (async () => {
    if (m.cmd === 'baseline') {
      await neighbour.baseline();
      process.send!({ done: 'baseline' });
    } else if (m.cmd === 'during') {
      probe = neighbour.during();
      process.send!({ done: 'during' });
    } else {
      const result = await probe!.stop(m.label);
      probe = null;
      process.send!({ done: 'stop', result });
    }
  })();
});
console.log(JSON.stringify({ ready: true }));
process.once('SIGTERM', () => void db.destroy().then(() => process.exit(0)));
