import crypto from 'node:crypto';
import { inject } from 'vitest';
import { createTestDatabase } from '@lampstand/db/testing';
import { HttpClient, registerChurch, startAppOn, type TestApp } from './test-app.js';

import '../provided.js';

type Account = Awaited<ReturnType<typeof registerChurch>>;
let workerApp: Promise<{ app: TestApp; admin: Account }> | undefined;

/**
 * The worker process's app, shared by the files it runs one after another that need no settings
 * of their own (as the browser tests share theirs, `apps/web/e2e/helpers.ts`). Starting an app
 * costs about a CPU-second (its database copied from the template, pg-boss, the routes), and
 * most files only register churches of their own and talk to it over HTTP. Its first account is
 * a platform administrator registered here, so a church a file registers is never the
 * administrator. Its database is dropped when the run ends (`global-setup.ts`): vitest ends a
 * worker without running a hook in it.
 *
 * A file may use it only if what it checks stays inside its own churches. A file starts an app of
 * its own (`startTestApp`) when it waits on background jobs (a file before it may have left the
 * queue busy: such files timed out on the shared app on a loaded machine), reads rows by a value
 * other files use too (an email address), counts every church's rows, gives money (the limits per
 * address count every file's gifts), stops the app or its workers, runs a controlled clock, or needs
 * settings of its own.
 */
export async function sharedTestApp(): Promise<TestApp> {
  workerApp ??= startWorkerApp();
  return (await workerApp).app;
}

/** The shared app's platform administrator, signed in on a client (a session) of the caller's own. */
export async function sharedAdmin(): Promise<Account> {
  workerApp ??= startWorkerApp();
  const { app, admin } = await workerApp;
  const client = new HttpClient(app.url);
  const res = await client.post('/api/login', { username: admin.user.username, password: admin.password });
  if (res.status !== 200) throw new Error(`the administrator's sign-in failed: ${res.status} ${res.text}`);
  return { ...admin, client };
}

async function startWorkerApp(): Promise<{ app: TestApp; admin: Account }> {
  const tdb = await createTestDatabase(inject('pgServerUrl'), inject('pgTemplate'), {
    name: `${inject('serverDatabasePrefix')}${process.pid}_${crypto.randomBytes(3).toString('hex')}`,
  });
  const app = await startAppOn(tdb);
  const admin = await registerChurch(app.url, 'Lampstand Platform');
  return { app, admin };
}
