import { describe, expect, it } from 'vitest';
import { isCrawler, visitSource } from './visits.js';

describe('visitSource', () => {
  it('takes our own lsrc first: QR scans, short links, email and SMS campaigns', () => {
    expect(visitSource({ lsrc: 'qr.12', utm_source: 'x' }, 'https://facebook.com/', 'church.example')).toEqual({
      kind: 'qr',
      value: '12',
    });
    expect(visitSource({ lsrc: 'link.7' }, undefined, undefined)).toEqual({ kind: 'link', value: '7' });
    expect(visitSource({ lsrc: 'email.5' }, undefined, undefined)).toEqual({ kind: 'email', value: '5' });
    expect(visitSource({ lsrc: ['sms.9', 'qr.1'] }, undefined, undefined)).toEqual({ kind: 'sms', value: '9' });
  });
  it('ignores a malformed lsrc and falls back to UTM, then the referrer host, then direct', () => {
    expect(visitSource({ lsrc: 'qr.0' }, undefined, undefined)).toEqual({ kind: 'direct', value: null });
    expect(visitSource({ lsrc: 'evil.1' }, undefined, undefined)).toEqual({ kind: 'direct', value: null });
    expect(visitSource({ lsrc: 'qr.12345678901' }, undefined, undefined)).toEqual({ kind: 'direct', value: null });
    expect(
      visitSource({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'easter' }, undefined, undefined),
    ).toEqual({ kind: 'utm', value: 'newsletter / email / easter' });
    expect(visitSource({ utm_campaign: 'x\u0000y' }, undefined, undefined)).toEqual({ kind: 'utm', value: 'xy' });
    expect(visitSource({}, 'https://www.Facebook.com/post/1', 'church.example')).toEqual({
      kind: 'referrer',
      value: 'www.facebook.com',
    });
    expect(visitSource({}, 'https://church.example/p/other', 'church.example')).toEqual({
      kind: 'direct',
      value: null,
    });
    expect(visitSource({}, 'not a url', 'church.example')).toEqual({ kind: 'direct', value: null });
  });
});

describe('isCrawler', () => {
  it('knows crawlers and link-preview agents, and lets browsers through', () => {
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Twitterbot/1.0',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'WhatsApp/2.23.20.0',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'curl/8.4.0',
      '',
      undefined,
    ])
      expect(isCrawler(ua), String(ua)).toBe(true);
    for (const ua of [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36',
    ])
      expect(isCrawler(ua), ua).toBe(false);
  });
});
