import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const linux = fs.existsSync('/proc/self/task');

/** In a process of its own (the test runner keeps its priority): lowers it, then lists each thread's nice. */
async function threadsAfter(
  call: 'lowerProcessPriority' | 'lowerThreadPriority' | 'lowerHelperThreadsPriority',
  nice: number,
) {
  const module = pathToFileURL(fileURLToPath(new URL('./priority.ts', import.meta.url))).href;
  const script = `
    import fs from 'node:fs';
    import os from 'node:os';
    const before = os.getPriority();
    import { ${call} } from ${JSON.stringify(module)};
    const answer = ${call}(${nice});
    const self = fs.readlinkSync('/proc/thread-self').split('/').pop();
    const threads = fs.readdirSync('/proc/self/task').map((tid) => {
      const stat = fs.readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
      // The fields after the command name (in parentheses, which may hold spaces): nice is the 19th field.
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      return { main: tid === self, nice };
    });
    console.log(JSON.stringify({ before, answer, threads }));
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
  return JSON.parse(stdout.trim().split('\n').pop()!) as {
    before: number;
    answer: number | null;
    threads: { main: boolean; nice: number }[];
  };
}

describe.runIf(linux)('priority', () => {
  it('lowers every thread of the process, V8’s helpers too, not only the one that asks', async () => {
    const { answer, threads } = await threadsAfter('lowerProcessPriority', 7);
    expect(threads.length).toBeGreaterThan(1);
    expect(answer).toBe(threads.length);
    expect(threads.map((t) => t.nice)).toEqual(threads.map(() => 7));
  });

  it('lowers only the thread that asks when it is one thread of a process', async () => {
    const { before, answer, threads } = await threadsAfter('lowerThreadPriority', 6);
    expect(before).toBeLessThan(6);
    expect(answer).toBe(6);
    expect(threads.find((t) => t.main)?.nice).toBe(6);
    const others = threads.filter((t) => !t.main);
    expect(others.length).toBeGreaterThan(0);
    expect(others.map((t) => t.nice)).toEqual(others.map(() => before));
  });

  it('lowers the helper threads of the API process, not its event loop', async () => {
    const { before, answer, threads } = await threadsAfter('lowerHelperThreadsPriority', 8);
    expect(before).toBeLessThan(8);
    const others = threads.filter((t) => !t.main);
    expect(others.length).toBeGreaterThan(0);
    expect(answer).toBe(others.length);
    expect(others.map((t) => t.nice)).toEqual(others.map(() => 8));
    expect(threads.find((t) => t.main)?.nice).toBe(before);
  });
});
