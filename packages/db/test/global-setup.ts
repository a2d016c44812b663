import type { TestProject } from 'vitest/node';
import { startTestServer } from '../src/testing.js';

import './provided.js';

/** vitest globalSetup: one PostgreSQL server and migrated template for the whole run. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  project.provide('pgServerUrl', server.serverUrl);
  project.provide('pgTemplate', server.templateName);
  return async () => {
    await server.stop();
  };
}
