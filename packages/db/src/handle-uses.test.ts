import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every use of an owner or bypass handle is listed in docs/security.md with its
// reason. A file uses one when it calls bypassDb/ownerDb/refreshStatistics, or when it works on the
// system handle outside a church's request (the server's jobs, public routes and entry points).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const EXPLICIT = /\b(bypassDb|ownerDb|refreshStatistics)\(/;
const SYSTEM_ENTRY_POINTS = [
  'apps/server/src/provider-webhooks.ts',
  'apps/server/src/public-routes.ts',
  'apps/server/src/bounces.ts',
  'apps/server/src/context.ts',
  'apps/server/src/session-store.ts',
];

function sources(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : sources(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

describe('owner and bypass handles', () => {
  it('every file that uses one is listed in docs/security.md, and every listed file still does', () => {
    const code = new Set<string>();
    for (const dir of ['packages/db/src', 'packages/api/src', 'apps/server/src']) {
      for (const file of sources(dir)) {
        const text = fs.readFileSync(path.join(root, file), 'utf8');
        if (file === 'packages/db/src/index.ts') continue; // re-exports
        if (EXPLICIT.test(text)) code.add(file);
        if (/^apps\/server\/src\/(jobs|public)\//.test(file)) code.add(file);
      }
    }
    for (const f of SYSTEM_ENTRY_POINTS) code.add(f);
    const doc = fs.readFileSync(path.join(root, 'docs/security.md'), 'utf8');
    const section = /<!-- handle-uses:start -->([\s\S]*?)<!-- handle-uses:end -->/.exec(doc)?.[1] ?? '';
    const listed = new Set([...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!));
    expect([...code].filter((f) => !listed.has(f)).sort(), 'uses missing from docs/security.md').toEqual([]);
    expect([...listed].filter((f) => !code.has(f)).sort(), 'listed but no longer used').toEqual([]);
  });
});
