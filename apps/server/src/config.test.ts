import { describe, expect, it } from 'vitest';
import { listenUrlOf, loadConfig } from './config.js';

// One schema for the environment; each variable with its own type, range and message,
// refused at start with the variable named.
describe('the environment', () => {
  it('an integer setting is a whole number in its own range, not a port number', () => {
    expect(loadConfig({ NODE_ENV: 'test', ACCESS_LOG_SLOW_MS: '120000' }).accessLog.slowMs).toBe(120_000);
    expect(loadConfig({ NODE_ENV: 'test', READ_YOUR_WRITES_SECONDS: '70000' }).readYourWritesSeconds).toBe(70_000);
    expect(() => loadConfig({ NODE_ENV: 'test', READ_YOUR_WRITES_SECONDS: 'abc' })).toThrow(
      "READ_YOUR_WRITES_SECONDS must be a whole number from 0 to 86,400, got 'abc'",
    );
    expect(() => loadConfig({ NODE_ENV: 'test', WORKER_CPU_PERCENT: '150' })).toThrow(
      "WORKER_CPU_PERCENT must be a whole number from 1 to 100, got '150'",
    );
    expect(() => loadConfig({ NODE_ENV: 'test', PORT: '70000' })).toThrow(
      "PORT must be a port number (0 to 65535), got '70000'",
    );
  });

  it('the workers LISTEN on a direct connection, never through a pooler in transaction mode', () => {
    const app = 'postgres://app@127.0.0.1:6432/lampstand';
    const direct = 'postgres://app@127.0.0.1:5432/lampstand';
    expect(listenUrlOf(loadConfig({ NODE_ENV: 'test', DATABASE_URL: app }), app)).toBe(app);
    const pooled = { NODE_ENV: 'test', DATABASE_URL: app, DATABASE_POOLER: 'transaction' };
    expect(listenUrlOf(loadConfig(pooled), app)).toBeNull();
    expect(listenUrlOf(loadConfig({ ...pooled, DATABASE_LISTEN_URL: direct }), app)).toBe(direct);
    expect(() => loadConfig({ ...pooled, DATABASE_LISTEN_URL: 'redis://x' })).toThrow(
      /^DATABASE_LISTEN_URL must be a URL/,
    );
  });

  it('BOUNCE_SMTP_PORT is a port number or unset, never NaN', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).bounceSmtpPort).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', BOUNCE_SMTP_PORT: '2525' }).bounceSmtpPort).toBe(2525);
    expect(() => loadConfig({ NODE_ENV: 'test', BOUNCE_SMTP_PORT: 'smtp' })).toThrow(
      "BOUNCE_SMTP_PORT must be a port number (0 to 65535), got 'smtp'",
    );
  });

  it('every bad variable is named at once', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', EMAIL_WARMUP: 'maybe', DATABASE_URL: 'mysql://x/y' })).toThrow(
      /DATABASE_URL must be a URL starting with postgres:\/\/ or postgresql:\/\/, got 'mysql:\/\/x\/y'; EMAIL_WARMUP must be 'true' or 'false', got 'maybe'/,
    );
  });

  it("the SMS sender is never Twilio's test number: required with Twilio, none without", () => {
    expect(loadConfig({ NODE_ENV: 'test' }).twilioFromNumber).toBe('');
    expect(() => loadConfig({ NODE_ENV: 'test', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' })).toThrow(
      /^TWILIO_FROM_NUMBER must be set with TWILIO_ACCOUNT_SID/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', TWILIO_FROM_NUMBER: '555-1234' })).toThrow(
      /^TWILIO_FROM_NUMBER must be a phone number in E.164 form/,
    );
  });

  it('production with DATABASE_URL needs SECRETS_KEY, and a malformed key is refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y' })).toThrow(
      /^SECRETS_KEY must be set in production with DATABASE_URL/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', SECRETS_KEY: 'short' })).toThrow(
      /^SECRETS_KEY must be 32 random bytes/,
    );
  });
});
