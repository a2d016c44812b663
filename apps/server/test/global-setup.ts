import { createRequire } from 'node:module';
import type { TestProject } from 'vitest/node';
import { startTestServer } from '@lampstand/db/testing';
import { JOB_NAMES } from '@lampstand/api/server';
import { installJobQueue } from '../src/jobs/queue.js';

import '@lampstand/db/test/provided';

const pgBossVersion = (createRequire(import.meta.url)('pg-boss/package.json') as { version: string }).version;

/**
 * vitest globalSetup of the server's tests (and the browser tests): one PostgreSQL server, and a
 * template database holding the migrations and pg-boss's schema and queues, made once per run
 * instead of in every test file's database.
 */
export default async function setup(project: TestProject) {
  const server = await startTestServer(undefined, {
    key: `pg-boss ${pgBossVersion}: ${JOB_NAMES.join(', ')}`,
    build: installJobQueue,
  });
  project.provide('pgServerUrl', server.serverUrl);
  project.provide('pgTemplate', server.templateName);
  return async () => {
    await server.stop();
  };
}
