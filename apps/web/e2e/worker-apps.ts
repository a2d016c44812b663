import type { TestProject } from 'vitest/node';
import { dropTestDatabases } from '@lampstand/db/testing';

import '@lampstand/db/test/provided';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The start of the name of each worker's shared app database (see `startE2E` in helpers.ts). */
    e2eDatabasePrefix: string;
  }
}

/**
 * vitest globalSetup of the browser tests: names this run's shared app databases, and drops them
 * when the run ends. Each worker process keeps one app for the files it runs, and vitest ends a
 * worker without a hook in it, so its database outlives it until this teardown.
 */
export default function setup(project: TestProject) {
  const prefix = `lampstand_t_e2e_${process.pid}_${Date.now().toString(36)}_`;
  project.provide('e2eDatabasePrefix', prefix);
  return () => dropTestDatabases(project.getProvidedContext().pgServerUrl, prefix);
}
