import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newest(dir: string): number {
  let t = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** Build the web app when dist is missing or older than its sources, so tests see the current screens. */
export default function setup() {
  const index = path.join(webDir, 'dist', 'index.html');
  const sources = Math.max(newest(path.join(webDir, 'src')), fs.statSync(path.join(webDir, 'index.html')).mtimeMs);
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [path.join(webDir, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    // NODE_ENV=production, as `pnpm build`: vitest sets 'test', with which Vite bundled React's development
    // build (slower, and not what ships).
    { cwd: webDir, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}
