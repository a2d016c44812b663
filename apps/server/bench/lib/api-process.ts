import { spawn } from 'node:child_process';
import { serverDir } from './api-load.js';

/**
 * The app in a process of its own (bench/lib/api-process-main.ts: `startSetupServer` on the
 * benchmark's database), for another church's requests while the benchmark's own process does
 * the heavy work: that process's memory stays the work's alone.
 */
export async function startApiProcess(databaseUrl: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/api-process-main.ts'], {
    cwd: serverDir,
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the API process exited with ${code}: ${out}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}
