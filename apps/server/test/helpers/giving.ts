import { expect } from 'vitest';
import { PDFParse } from 'pdf-parse';
import type { HttpClient } from './test-app.js';
export { chargeDueSchedules } from '@lampstand/api/server';
export { GIVE_PAGE_SCRIPT as GIVE_PAGE_SCRIPT_FOR_TESTS } from '@lampstand/api/render/give-page-html';
export { deliverStatements } from '@lampstand/api/server';

/** A PDF's text, as a reader would copy it (statements are checked line by line). */
export async function pdfText(data: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(data) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** Start a statement run for a range and wait (polling its state) until it is done; its id. */
export async function statementRunDone(client: HttpClient, range: { from: string; to: string }): Promise<number> {
  const run = await client.post('/api/giving/statements', range);
  expect(run.status, run.text).toBe(202);
  await expect
    .poll(async () => (await client.get(`/api/giving/statements/${run.body.id}`)).body.status, {
      timeout: 60_000,
      interval: 250,
    })
    .toBe('done');
  return run.body.id as number;
}
