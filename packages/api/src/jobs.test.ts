import { describe, expect, it } from 'vitest';
import { BadJobPayloadError, parseJobPayload } from './jobs.js';

describe('parseJobPayload', () => {
  it("takes the payloads pg-boss's schedules send every minute ({})", () => {
    expect(parseJobPayload('campaign-sweep', {})).toEqual({});
    expect(parseJobPayload('social-post-sweep', {})).toEqual({});
    expect(parseJobPayload('social-post-publish', {})).toEqual({});
  });

  it('takes a good payload as it is', () => {
    const start = { channel: 'sms', campaignId: 4, scheduledFor: '2026-11-22T09:30:00.000Z' } as const;
    expect(parseJobPayload('campaign-start', start)).toEqual(start);
  });

  it('names the job and every bad field', () => {
    const bad = () => parseJobPayload('campaign-start', { channel: 'fax', campaignId: 0, scheduledFor: 'soon' });
    expect(bad).toThrow(BadJobPayloadError);
    expect(bad).toThrow(
      'Job campaign-start has a bad payload: channel: Invalid option: expected one of "email"|"sms"; ' +
        'campaignId: Too small: expected number to be >0; scheduledFor: Invalid ISO datetime',
    );
    expect(() => parseJobPayload('donation-receipt', null)).toThrow(
      'Job donation-receipt has a bad payload: (payload): Invalid input: expected object, received null',
    );
  });
});
