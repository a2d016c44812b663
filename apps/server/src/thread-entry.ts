import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * Where a worker thread's entry module is, for the plain-JavaScript bootstrap that starts it (run
 * with `eval`). From the TypeScript sources (tsx, vitest) the entry is `<name>.ts` beside the caller
 * and the bootstrap first registers tsx's loader; in the esbuild-built server every entry point and
 * chunk sits in dist/, so the entry is `dist/<name>.js` and needs no loader.
 */
export function threadEntry(callerUrl: string, name: string): { entry: string; loader: string | null } {
  const fromSource = callerUrl.endsWith('.ts');
  const entry = new URL(`./${name}.${fromSource ? 'ts' : 'js'}`, callerUrl).href;
  // tsx's ES module API (require.resolve finds its CommonJS twin beside it).
  const loader = fromSource
    ? pathToFileURL(
        createRequire(import.meta.url)
          .resolve('tsx/esm/api')
          .replace(/\.cjs$/, '.mjs'),
      ).href
    : null;
  return { entry, loader };
}
