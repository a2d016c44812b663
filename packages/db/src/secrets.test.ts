import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { emptyDatabase } from '../test/fresh-db.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';
import { rawSql } from './raw-sql.js';
import {
  isSealed,
  keyringFrom,
  newSecretKey,
  openSecret,
  resealSecrets,
  sealSecret,
  SECRET_COLUMNS,
  useKeyring,
  activeKeyring,
} from './secrets.js';
import { ownerDb } from './tenancy.js';

describe('sealed secrets', () => {
  it('seal and open round-trip; another key, a changed byte or a plain value is refused', () => {
    const a = keyringFrom(newSecretKey());
    const b = keyringFrom(newSecretKey());
    const sealed = sealSecret('whsec_abc', a);
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:/);
    expect(sealed).not.toContain('whsec_abc');
    expect(sealSecret('whsec_abc', a)).not.toBe(sealed); // a new IV each time
    expect(openSecret(sealed, a)).toBe('whsec_abc');
    expect(() => openSecret(sealed, b)).toThrow(/key this process does not have/);
    // One bit of the sealed text's last part flipped (choosing a letter by the one beside it could
    // leave the text as it was: one run in 64).
    const parts = sealed.split(':');
    const body = Buffer.from(parts[parts.length - 1]!, 'base64url');
    body[0]! ^= 1;
    const tampered = [...parts.slice(0, -1), body.toString('base64url')].join(':');
    expect(tampered).not.toBe(sealed);
    expect(() => openSecret(tampered, a)).toThrow();
    expect(() => openSecret('whsec_abc', a)).toThrow(/not sealed/);
  });

  it('a malformed SECRETS_KEY is refused with the variable named', () => {
    expect(() => keyringFrom('short')).toThrow(/^SECRETS_KEY must be 32 random bytes/);
    expect(() => keyringFrom(newSecretKey(), ['nope'])).toThrow(/^SECRETS_KEY_PREVIOUS must be/);
    expect(keyringFrom(crypto.randomBytes(32).toString('hex')).current.key).toHaveLength(32);
    expect(keyringFrom(crypto.randomBytes(32).toString('base64')).current.key).toHaveLength(32);
  });
});

describe('migration 0117 seals the secrets stored in clear, and a rotation re-seals them', async () => {
  const { db } = await emptyDatabase();
  const owner = ownerDb(db);
  const raw = rawSql(owner);
  const clear = {
    dkim: '-----BEGIN PRIVATE KEY-----\nMIIclear\n-----END PRIVATE KEY-----\n',
    webhook: 'whsec_clearWebhookSecret',
    previous: 'whsec_clearPreviousSecret',
    social: 'a'.repeat(64),
    session: 'clear-session-secret-0123456789-abcdefghij',
  };

  it('every value written before the migration is sealed after it, and opens to what it was', async () => {
    const before = new Migrator({ db: owner, provider: { getMigrations: async () => migrations } });
    const r = await before.migrateTo('2026_11_26_0100_lookups_under_policies');
    expect(r.error).toBeUndefined();
    const [church] = await raw.query<{ id: number }>(
      `insert into users (username, password_hash, church_name, email) values ('grace', 'x', 'Grace', 'g@example.org') returning id`,
      [],
    );
    await raw.query(
      `insert into sending_domains (user_id, domain, dkim_selector, dkim_private_key, dkim_public_key) values ($1, 'grace.example', 'ls1', $2, 'pub')`,
      [church!.id, clear.dkim],
    );
    await raw.query(
      `insert into webhook_endpoints (user_id, url, secret, previous_secret) values ($1, 'https://example.org/h', $2, $3)`,
      [church!.id, clear.webhook, clear.previous],
    );
    await raw.query(`insert into social_settings (user_id, webhook_secret) values ($1, $2)`, [
      church!.id,
      clear.social,
    ]);
    await raw.query(`insert into app_settings (key, value) values ('session_secret', $1), ('other', 'kept')`, [
      clear.session,
    ]);

    const latest = await migrateToLatest(db);
    expect(latest.error).toBeUndefined();

    // The dump of every table holding a secret: none of the clear values is in it.
    const tables = [...new Set(SECRET_COLUMNS.map((c) => c.table))];
    let dump = '';
    for (const t of tables) {
      const rows = await raw.query<{ row: unknown }>(`select row_to_json(t) as row from "${t}" t`, []);
      dump += JSON.stringify(rows);
    }
    for (const value of Object.values(clear)) expect(dump).not.toContain(value);
    expect(dump).not.toContain('BEGIN PRIVATE KEY');
    expect(dump).toContain('"kept"'); // a setting that is not a secret is left as it was

    const [domain] = await raw.query<{ k: string }>(`select dkim_private_key as k from sending_domains`, []);
    const [hook] = await raw.query<{ s: string; p: string }>(
      `select secret as s, previous_secret as p from webhook_endpoints`,
      [],
    );
    const [social] = await raw.query<{ s: string }>(`select webhook_secret as s from social_settings`, []);
    const [session] = await raw.query<{ v: string }>(
      `select value as v from app_settings where key = 'session_secret'`,
      [],
    );
    expect(openSecret(domain!.k)).toBe(clear.dkim);
    expect(openSecret(hook!.s)).toBe(clear.webhook);
    expect(openSecret(hook!.p)).toBe(clear.previous);
    expect(openSecret(social!.s)).toBe(clear.social);
    expect(openSecret(session!.v)).toBe(clear.session);
  });

  it('a new SECRETS_KEY with the old one as SECRETS_KEY_PREVIOUS: every value re-sealed under the new key', async () => {
    const old = activeKeyring();
    const rotated = { current: keyringFrom(newSecretKey()).current, previous: [old.current] };
    try {
      useKeyring(rotated);
      expect(await resealSecrets(raw)).toBe(5);
      expect(await resealSecrets(raw)).toBe(0); // nothing left under the old key
      const [hook] = await raw.query<{ s: string }>(`select secret as s from webhook_endpoints`, []);
      expect(isSealed(hook!.s)).toBe(true);
      expect(openSecret(hook!.s, { current: rotated.current, previous: [] })).toBe(clear.webhook);
      expect(() => openSecret(hook!.s, old)).toThrow();
    } finally {
      useKeyring(old);
    }
  });
});
