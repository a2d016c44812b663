import os from 'node:os';
import { threadId } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { moveIn, moveInFixture } from '../helpers/move-in.js';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

/** A move-in upload is read in the previews' thread, not on the API's event loop (imports-preview-pool.ts). */

const app = await startTestApp();
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const { upload } = moveIn(app.url);
const previews = app.deps.previews;

describe('the move-in preview thread', () => {
  it('reads uploads from several churches in one thread of its own, each as its church', async () => {
    const [people, gifts] = await Promise.all([
      upload(grace.client, moveInFixture('planning-center-people.csv'), 'people.csv'),
      upload(hope.client, moveInFixture('planning-center-donations.csv'), 'gifts.csv'),
    ]);
    expect(people.status, JSON.stringify(people.body)).toBe(201);
    expect(gifts.status, JSON.stringify(gifts.body)).toBe(201);
    expect(people.body.preview.people.new).toBeGreaterThan(0);
    expect(gifts.body.preview.gifts.count).toBeGreaterThan(0);
    expect(previews.ranOn).toHaveLength(2);
    const [first, second] = previews.ranOn.map((r) => r.threadId);
    expect(first).not.toBe(threadId);
    expect(second).toBe(first);
    // Below the API's priority (the worker's, WORKER_NICE), where the OS has per-thread priorities.
    if (process.platform === 'linux') expect(previews.ranOn[0]!.nice).toBeGreaterThan(os.getPriority());
    // Stored by the thread under each church's own scope: neither sees the other's import.
    expect((await grace.client.get(`/api/imports/${people.body.id}`)).status).toBe(200);
    expect((await hope.client.get(`/api/imports/${people.body.id}`)).status).toBe(404);
    expect((await grace.client.get(`/api/imports/${gifts.body.id}`)).status).toBe(404);
  });

  it("answers the thread's refusals with the same status and words", async () => {
    const wrong = await upload(grace.client, moveInFixture('breeze-people.csv'), 'x.csv', {
      source: 'planning-center-people',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      "This is not a Planning Center People export: its header row has no column 'Person ID'",
    );
    expect(previews.ranOn).toHaveLength(3);
  });

  it('starts another thread for the next upload once it has been closed', async () => {
    const first = previews.ranOn[0]!.threadId;
    await previews.close();
    const again = await upload(grace.client, moveInFixture('breeze-people.csv'), 'breeze.csv');
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(previews.ranOn.at(-1)!.threadId).not.toBe(first);
    expect(previews.ranOn.at(-1)!.threadId).not.toBe(threadId);
  });
});
