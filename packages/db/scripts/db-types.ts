import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_FILE, generateDatabaseTypes } from '../src/codegen.js';
import { createTestDatabase, startTestServer } from '../src/testing.js';

// pnpm --filter @lampstand/db db:types: migrate a scratch database (a copy of the tests' migrated
// template, on TEST_DATABASE_URL's server, or an embedded one when it is unset) and write its
// Kysely types to src/generated/db.ts.
const server = await startTestServer();
try {
  const scratch = await createTestDatabase(server.serverUrl, server.templateName);
  try {
    const text = await generateDatabaseTypes(scratch.url);
    fs.mkdirSync(path.dirname(GENERATED_FILE), { recursive: true });
    const before = fs.existsSync(GENERATED_FILE) ? fs.readFileSync(GENERATED_FILE, 'utf8') : '';
    fs.writeFileSync(GENERATED_FILE, text);
    const where = path.relative(process.cwd(), GENERATED_FILE);
    console.log(before === text ? `${where} is up to date.` : `Wrote ${where}.`);
  } finally {
    await scratch.drop();
  }
} finally {
  await server.stop();
}
