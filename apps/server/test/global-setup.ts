import { createRequire } from 'node:module';
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
    await dropTestDatabases(server.serverUrl, prefix);
    await server.stop();
  };
}
