import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { dropTestDatabases, startTestServer } from '@lampstand/db/testing';
import { JOB_NAMES } from '@lampstand/api/server';
import { installJobQueue } from '../src/jobs/queue.js';

import './provided.js';

const pgBossVersion = (createRequire(import.meta.url)('pg-boss/package.json') as { version: string }).version;

/**
 * vitest globalSetup of the server's tests (and the browser tests): one PostgreSQL server, and a
 * template database holding the migrations and pg-boss's schema and queues, made once per run
 * instead of in every test file's database. The worker processes' shared apps
 * (`helpers/shared-app.ts`) name their databases with this run's prefix; they are dropped here when
 * the run ends.
 */
export default async function setup(project: TestProject) {
  const server = await startTestServer(undefined, {
    key: `pg-boss ${pgBossVersion}: ${JOB_NAMES.join(', ')}`,
    build: installJobQueue,
  });
  project.provide('pgServerUrl', server.serverUrl);
  project.provide('pgTemplate', server.templateName);
  const prefix = `lampstand_t_srv_${process.pid}_${Date.now().toString(36)}_`;
  project.provide('serverDatabasePrefix', prefix);
  return async () => {
    removeWorkerBundles(prefix);
    await dropTestDatabases(server.serverUrl, prefix);
    await server.stop();
  };
}

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Whether process `pid` is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The crash tests' worker bundle of this run (`.test-worker-<prefix>`, helpers/worker-crash.ts), a
 * half-built one's folder, and those left by runs that have ended without this hook (the name holds
 * the run's process id; `.test-worker-<pid>` is the older name, one per test process).
 */
function removeWorkerBundles(prefix: string): void {
  for (const name of fs.readdirSync(serverDir)) {
    if (!name.startsWith('.test-worker-')) continue;
    const pid = /^\.test-worker-(?:lampstand_t_srv_)?(\d+)(?:_|$)/.exec(name)?.[1];
    if (name.startsWith(`.test-worker-${prefix}`) || (pid && !alive(Number(pid))))
      fs.rmSync(path.join(serverDir, name), { recursive: true, force: true });
  }
}
