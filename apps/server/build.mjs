// Builds the server into dist/: one ES module per entry point, the workspace packages and every
// pure-JS dependency bundled in, native ones (and those that start binaries) left as imports.
import { build } from 'esbuild';
import fs from 'node:fs';

// Left as imports: native modules and those that start binaries (build-external.json: the worker
// bundle of the crash tests, test/helpers/worker-crash.ts, leaves out the same).
const external = JSON.parse(fs.readFileSync(new URL('./build-external.json', import.meta.url), 'utf8'));

fs.rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: {
    main: 'src/main.ts',
    worker: 'src/worker.ts',
    migrate: 'src/cli/migrate.ts',
    'admin-create': 'src/cli/admin-create.ts',
    'db-backup': 'src/cli/db-backup.ts',
    'db-restore': 'src/cli/db-restore.ts',
    // The thread that builds giving statements (src/jobs/statements-thread.ts starts it).
    'statements-build-thread': 'src/jobs/statements-build-thread.ts',
    // The thread that reads move-in uploads (src/public/imports-preview-pool.ts starts it).
    'imports-preview-thread': 'src/public/imports-preview-thread.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20.19',
  format: 'esm',
  splitting: true,
  sourcemap: true,
  // No comments or indentation: a bundle's source stays in the heap as long as the process runs, and
  // one non-Latin-1 character in a kept comment (luxon's, ours) made V8 hold a whole chunk as
  // two-byte text. Names are kept (stack traces still name functions; the source maps map lines).
  minifyWhitespace: true,
  external,
  logLevel: 'warning',
  // CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
