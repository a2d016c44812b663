import { describe, expect, it } from 'vitest';
import { parseReport, verpAddress, verpToken } from './reports.js';

const dsn = (action: string, status: string) =>
  [
    'Content-Type: multipart/report; report-type=delivery-status; boundary="x"',
    '',
    '--x',
    'Content-Type: text/plain',
    '',
    'Sorry.',
    '--x',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.org',
    '',
    'Final-Recipient: rfc822; <Ann@Example.org>',
    `Action: ${action}`,
    `Status: ${status}`,
    'Diagnostic-Code: smtp; 550 5.1.1 User unknown',
    '  (folded)',
    '',
    '--x',
    'Content-Type: text/rfc822-headers',
    '',
    'Message-ID: <delivery-42.0123456789ab@lampstand.test>',
    '--x--',
  ].join('\r\n');

describe('parseReport', () => {
  it('reads a failed 5.x.x DSN as a hard bounce, with the recipient, status, diagnostic and our Message-ID', () => {
    expect(parseReport(dsn('failed', '5.1.1'))).toEqual({
      kind: 'hard',
      recipient: 'Ann@Example.org',
      status: '5.1.1',
      detail: '5.1.1 550 5.1.1 User unknown (folded)',
      messageIds: ['42.0123456789ab'],
    });
  });
  it('reads delayed or 4.x.x as soft, and delivered as no bounce', () => {
    expect(parseReport(dsn('delayed', '4.4.1'))?.kind).toBe('soft');
    expect(parseReport(dsn('failed', '4.2.2'))?.kind).toBe('soft');
    expect(parseReport(dsn('delivered', '2.0.0'))).toBeNull();
  });
  it('reads an ARF feedback report as a complaint', () => {
    const raw = [
      'Content-Type: multipart/report; report-type=feedback-report; boundary="y"',
      '',
      '--y',
      'Content-Type: message/feedback-report',
      '',
      'Feedback-Type: abuse',
      'Original-Rcpt-To: <bob@example.org>',
      '',
      '--y',
      'Content-Type: message/rfc822',
      '',
      'Message-ID: <delivery-7.abcdefabcdef@lampstand.test>',
      '--y--',
    ].join('\n');
    expect(parseReport(raw)).toMatchObject({
      kind: 'complaint',
      recipient: 'bob@example.org',
      messageIds: ['7.abcdefabcdef'],
    });
  });
  it('ignores a message that is no report (an auto-reply)', () => {
    expect(parseReport('Subject: Out of office\r\n\r\nBack Monday.')).toBeNull();
  });
});

describe('VERP', () => {
  it('round-trips a delivery token through the return path', () => {
    const token = 'ab'.repeat(24);
    expect(verpAddress(token, 'bounces.example.org')).toBe(`bounces+${token}@bounces.example.org`);
    expect(verpToken(verpAddress(token, 'bounces.example.org'))).toBe(token);
    expect(verpToken('bounces@example.org')).toBeNull();
    expect(verpToken('bounces+xyz@example.org')).toBeNull();
  });
});
