import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogStream, OneLineRequestLog } from './logger.js';

// No log line per request on the hot path; a sampled access log instead, with every
// failed or slow request kept.
describe('the sampled access log', () => {
  it('writes one in N ordinary requests, and every failed or slow one', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    });
    const app = Fastify({
      loggerInstance: pino({ level: 'info' }, stream),
      logController: new OneLineRequestLog({ sampleEvery: 3, slowMs: 50 }),
    });
    app.get('/ok', async () => ({ ok: true }));
    app.get('/slow', async () => {
      await new Promise((r) => setTimeout(r, 80));
      return { ok: true };
    });
    try {
      for (let i = 0; i < 6; i++) expect((await app.inject({ url: '/ok' })).statusCode).toBe(200);
      expect((await app.inject({ url: '/missing' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/slow' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed.map((l) => [l.url, l.statusCode, l.sampled])).toEqual([
      ['/ok', 200, 3],
      ['/ok', 200, 3],
      ['/missing', 404, undefined],
      ['/slow', 200, undefined],
    ]);
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });
});

// In production a line sat in a 4 KiB buffer until it filled or the process exited.
describe('the production log stream', () => {
  it('writes an info line within the flush interval, and a warning or an error at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'log-'));
    const file = path.join(dir, 'out.log');
    let tick: (() => void) | undefined;
    const stream = createLogStream({
      dest: file,
      every: (fn) => {
        tick = fn;
        return {};
      },
      stop: () => undefined,
    });
    const logger = pino({ level: 'info' }, stream);
    const read = () => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
    const eventually = async (want: string) => {
      for (let i = 0; i < 200 && !read().includes(want); i++) await new Promise((r) => setTimeout(r, 10));
      return read();
    };
    try {
      logger.info('quiet line');
      await new Promise((r) => setTimeout(r, 50));
      expect(read()).not.toContain('quiet line'); // buffered: no system call per line
      tick!(); // the second passes
      expect(await eventually('quiet line')).toContain('quiet line');

      logger.info('another quiet line');
      logger.warn('a proxy warning');
      expect(await eventually('a proxy warning')).toContain('another quiet line'); // with it, in order
      logger.error('an error');
      expect(await eventually('an error')).toContain('an error'); // no tick needed
    } finally {
      stream.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
