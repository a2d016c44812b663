import { expect } from 'vitest';
import { registerChurch, startTestApp } from './test-app.js';

/** The planner's REST routes start here. */
export const PLANNER = '/api/service-planner';

/** A test app with the platform's first account and two churches, Grace and Hope. */
export async function plannerChurches() {
  const app = await startTestApp();
  await registerChurch(app.url, 'Platform');
  const grace = await registerChurch(app.url, 'Grace Church');
  const hope = await registerChurch(app.url, 'Hope Chapel');
  return { app, grace, hope, g: grace.client, h: hope.client };
}

/** A 400 with this message that names this field. */
export function expect400(res: { status: number; body: any }, field: string, message: string) {
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(message);
  expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(field);
}
