import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from './migrations/index.js';

// Landed migrations are frozen. Two were edited after they landed, and a database
// migrated between the two commits differed silently. Each migration's SHA-256 is recorded in
// migrations/landed.json when it is added; an edit of a recorded one fails here. A new migration is
// recorded with the line this test prints.
const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const hashOf = (name: string) =>
  crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(dir, `${name}.ts`)))
    .digest('hex');

describe('landed migrations', () => {
  const recorded = JSON.parse(fs.readFileSync(path.join(dir, 'landed.json'), 'utf8')) as Record<string, string>;

  it('no recorded migration was edited', () => {
    const edited = Object.entries(recorded)
      .filter(([name, hash]) => hashOf(name) !== hash)
      .map(([name]) => name);
    expect(edited, 'frozen migrations edited: write a new migration instead').toEqual([]);
  });

  it('every migration the code runs is recorded, and every recorded one is still run', () => {
    const missing = Object.keys(migrations).filter((name) => !(name in recorded));
    expect(
      missing.map((name) => `"${name}": "${hashOf(name)}"`),
      'record these in packages/db/src/migrations/landed.json',
    ).toEqual([]);
    expect(Object.keys(recorded).filter((name) => !(name in migrations))).toEqual([]);
  });
});
