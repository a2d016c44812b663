import { describe, expect, it } from 'vitest';
import { deviceClass, isCrawlerScan as isCrawler, referrerHost } from './short-links.js';
import { decorateDestination } from './qr-settings.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36';
const ANDROID_TABLET =
  'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148';
const WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

describe('short-link scans', () => {
  it('classes devices from the user agent', () => {
    expect(deviceClass(IPHONE)).toBe('mobile');
    expect(deviceClass(ANDROID_PHONE)).toBe('mobile');
    expect(deviceClass(ANDROID_TABLET)).toBe('tablet');
    expect(deviceClass(IPAD)).toBe('tablet');
    expect(deviceClass(WINDOWS)).toBe('desktop');
    expect(deviceClass(undefined)).toBe('other');
    expect(deviceClass('SmartTV/1.0')).toBe('other');
  });

  it('leaves out crawlers, link previews and prefetches, not people', () => {
    for (const ua of [
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Twitterbot/1.0',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'WhatsApp/2.23.20.0',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0 Safari/537.36',
      'curl/8.5.0',
    ])
      expect(isCrawler(ua), ua).toBe(true);
    for (const ua of [IPHONE, ANDROID_PHONE, IPAD, WINDOWS, undefined]) expect(isCrawler(ua), String(ua)).toBe(false);
    expect(isCrawler(IPHONE, { 'sec-purpose': 'prefetch;prerender' })).toBe(true);
    expect(isCrawler(IPHONE, { purpose: 'prefetch' })).toBe(true);
  });

  it('keeps only the referrer host', () => {
    expect(referrerHost('https://WWW.Facebook.com/groups/1?x=2')).toBe('www.facebook.com');
    expect(referrerHost('not a url')).toBeNull();
    expect(referrerHost(undefined)).toBeNull();
  });

  it('adds UTM parameters anywhere and the attribution only on our own origin', () => {
    const utm = { utmSource: 'flyer', utmMedium: null, utmCampaign: 'easter' };
    expect(
      decorateDestination('https://church.example/p/easter?utm_source=old#top', {
        utm,
        publicUrl: 'https://church.example',
        qrCodeId: 7,
        source: 'qr',
      }),
    ).toBe('https://church.example/p/easter?utm_source=flyer&utm_campaign=easter&lsrc=qr.7#top');
    expect(
      decorateDestination('https://other.example/', {
        utm: { utmSource: null, utmMedium: null, utmCampaign: null },
        publicUrl: 'https://church.example',
        qrCodeId: 7,
        source: 'link',
      }),
    ).toBe('https://other.example/');
  });
});
