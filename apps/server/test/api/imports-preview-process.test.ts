import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it, vi } from 'vitest';
import { PreviewProcess } from '../../src/public/imports-preview-pool.js';
import { moveIn, moveInFixture } from '../helpers/move-in.js';
import { registerChurch, startTestApp } from '../helpers/test-app.js';

/**
 * A move-in upload is read in the previews' process (imports-preview-pool.ts): not on the API's
 * event loop, and with every thread of it (V8's collector and compiler helpers too) below the API's priority.
 */

/** The worker's priority (WORKER_NICE's default), which the previews' process takes. */
const NICE = 10;
const app = await startTestApp({ workerNice: NICE });
await registerChurch(app.url, 'Platform');
const grace = await registerChurch(app.url, 'Grace Church');
const hope = await registerChurch(app.url, 'Hope Chapel');
const { upload } = moveIn(app.url);
const previews = app.deps.previews;

/** A Planning Center Giving export of `rows` gifts: a preview that takes a while. */
function bigGiftsFile(rows: number): Buffer {
  const lines = [
    'Donation ID,Person ID,First Name,Last Name,Email,Received At,Fund,Amount,Payment Method,Check Number,Fee Amount',
  ];
  for (let i = 1; i <= rows; i++) {
    const person = 1000 + (i % 3000);
    const day = String(1 + (i % 28)).padStart(2, '0');
    lines.push(
      `D${i},${person},Giver,No ${person},giver${person}@example.org,2024-02-${day} 10:00:00 UTC,General Fund,${(i % 200) + 1}.00,card,,0.50`,
    );
  }
  return Buffer.from(lines.join('\n') + '\n');
}

const gone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

/** The nice of every thread of `pid` (Linux), or of the process elsewhere. */
function threadsNice(pid: number): number[] {
  if (process.platform !== 'linux') return [os.getPriority(pid)];
  return fs.readdirSync(`/proc/${pid}/task`).map((tid) => os.getPriority(Number(tid)));
}

describe('the move-in previews process', () => {
  it('reads uploads from several churches in one process of its own, at a lower priority, each as its church', async () => {
    const [people, gifts] = await Promise.all([
      upload(grace.client, moveInFixture('planning-center-people.csv'), 'people.csv'),
      upload(hope.client, moveInFixture('planning-center-donations.csv'), 'gifts.csv'),
    ]);
    expect(people.status, JSON.stringify(people.body)).toBe(201);
    expect(gifts.status, JSON.stringify(gifts.body)).toBe(201);
    expect(people.body.preview.people.new).toBeGreaterThan(0);
    expect(gifts.body.preview.gifts.count).toBeGreaterThan(0);
    expect(previews.ranIn).toHaveLength(2);
    const [first, second] = previews.ranIn.map((r) => r.pid);
    expect(first).not.toBe(process.pid);
    expect(second).toBe(first);
    // Every thread of it at the worker's priority, as the process itself saw them and as seen from here.
    expect(previews.ranIn.map((r) => r.nice)).toEqual([NICE, NICE]);
    expect(os.getPriority(first)).toBe(NICE);
    expect(Math.min(...threadsNice(first!))).toBe(NICE);
    expect(os.getPriority()).toBeLessThan(NICE);
    // Stored by the process under each church's own scope: neither sees the other's import.
    expect((await grace.client.get(`/api/imports/${people.body.id}`)).status).toBe(200);
    expect((await hope.client.get(`/api/imports/${people.body.id}`)).status).toBe(404);
    expect((await grace.client.get(`/api/imports/${gifts.body.id}`)).status).toBe(404);
  });

  it("answers the process's refusals with the same status and words", async () => {
    const wrong = await upload(grace.client, moveInFixture('breeze-people.csv'), 'x.csv', {
      source: 'planning-center-people',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(
      "This is not a Planning Center People export: its header row has no column 'Person ID'",
    );
    expect(previews.ranIn).toHaveLength(3);
  });

  it("answers other requests while a large file's preview runs", async () => {
    let previewing = true;
    const big = upload(hope.client, bigGiftsFile(60_000), 'big.csv').finally(() => (previewing = false));
    await vi.waitFor(() => expect(previews.readingIn).not.toBeNull(), { timeout: 30_000, interval: 5 });
    let answered = 0;
    while (previewing) {
      const res = await grace.client.get('/api/imports');
      expect(res.status).toBe(200);
      if (previewing) answered++;
    }
    const done = await big;
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body.preview.gifts.count).toBe(60_000);
    expect(answered).toBeGreaterThan(0);
  });

  it('answers a clear error when its process dies mid-preview, and reads the next upload in a new one', async () => {
    const big = upload(grace.client, bigGiftsFile(60_000), 'big.csv');
    await vi.waitFor(() => expect(previews.readingIn).not.toBeNull(), { timeout: 30_000, interval: 2 });
    const killed = previews.readingIn!;
    process.kill(killed, 'SIGKILL');
    const res = await big;
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(
      /^The file could not be read: the process reading it stopped\. Please upload it again/,
    );
    const again = await upload(grace.client, moveInFixture('breeze-people.csv'), 'breeze.csv');
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(previews.ranIn.at(-1)!.pid).not.toBe(killed);
    expect(previews.ranIn.at(-1)!.nice).toBe(NICE);
  });

  it('starts another process for the next upload once it has been closed, and the closed one exits', async () => {
    const first = previews.ranIn.at(-1)!.pid;
    await previews.close();
    expect(gone(first)).toBe(true);
    const again = await upload(grace.client, moveInFixture('breeze-people.csv'), 'breeze.csv');
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(previews.ranIn.at(-1)!.pid).not.toBe(first);
    expect(previews.ranIn.at(-1)!.pid).not.toBe(process.pid);
  });

  it('stops a preview that outlasts its time and says so', async () => {
    const own = new PreviewProcess(
      { url: app.databaseUrl, rls: false, pooler: 'session', nice: NICE },
      { timeoutMs: 50 },
    );
    const big = own.upload(grace.user.id, { fileName: 'big.csv', data: bigGiftsFile(60_000), createdBy: null });
    const outcome = big.then(
      () => null,
      (err: unknown) => err,
    );
    await vi.waitFor(() => expect(own.readingIn).not.toBeNull(), { timeout: 30_000, interval: 1 });
    const pid = own.readingIn!;
    expect(String(await outcome)).toBe(
      'AppError: Reading the file took too long (over 1 s) and was stopped. Please split the file.',
    );
    await vi.waitFor(() => expect(gone(pid)).toBe(true));
    expect(own.ranIn).toHaveLength(0);
    await own.close();
  });
});
