import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (docs/security.md): DKIM private keys, webhook signing secrets,
 * provider credentials and the app's own signing secrets are stored sealed with AES-256-GCM under
 * `SECRETS_KEY`, so a leaked backup or dump holds none of them. A sealed value is text:
 * `enc:v1:<key id>:<iv>:<tag>:<ciphertext>` (base64url), where the key id names which key sealed it
 * (the first 8 hex digits of the key's SHA-256), so a second key (`SECRETS_KEY_PREVIOUS`) can still
 * open values sealed before a rotation, and the start-up pass re-seals them under the new one
 * (`resealSecrets`).
 *
 * The process has one keyring, set once at start by the server, a worker or a CLI
 * (`useKeyring`); only the code that uses a secret opens it (`openSecret`).
 */
export interface SecretKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  current: SecretKey;
  /** Keys that may open older values (never used to seal). */
  previous: SecretKey[];
}

const PREFIX = 'enc:v1:';

/** A key from its text: 32 bytes as base64/base64url (43–44 characters) or hex (64). */
export function secretKeyFrom(text: string, name = 'SECRETS_KEY'): SecretKey {
  const t = text.trim();
  let key: Buffer | undefined;
  if (/^[0-9a-f]{64}$/i.test(t)) key = Buffer.from(t, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(t)) key = Buffer.from(t.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (!key || key.length !== 32) {
    throw new Error(`${name} must be 32 random bytes written as base64 (44 characters) or hex (64 characters)`);
  }
  return { id: crypto.createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export function keyringFrom(current: string, previous: string[] = []): Keyring {
  return {
    current: secretKeyFrom(current),
    previous: previous.map((p) => secretKeyFrom(p, 'SECRETS_KEY_PREVIOUS')),
  };
}

/** A new random key, as `SECRETS_KEY` takes it. */
export function newSecretKey(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * A secret kept in a file of the data folder (mode 0600), made with `make()` the first time:
 * the embedded default keeps its keys where it keeps the database's files. Two processes starting
 * together write it once (the second finds the first's).
 */
export function secretInDataDir(dataDir: string, name: string, make: () => string): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, `${make()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** The key kept in `DATA_DIR/secrets-key`, for the embedded default and development. */
export function secretKeyInDataDir(dataDir: string): string {
  return secretInDataDir(dataDir, 'secrets-key', newSecretKey);
}

let active: Keyring | undefined;

/**
 * The key of test runs (`NODE_ENV=test`) that set no `SECRETS_KEY`: known to everyone, so never a
 * production key; it lets every test file's services seal and open without a set-up step.
 */
export const TEST_SECRETS_KEY = 'bGFtcHN0YW5kLXRlc3Qta2V5LW5ldmVyLWluLXVzZSE';

/** Set the process's keyring (the server, worker and CLIs at start; the test setup). */
export function useKeyring(keyring: Keyring): void {
  active = keyring;
}

export function activeKeyring(): Keyring {
  if (!active && process.env.NODE_ENV === 'test') active = keyringFrom(TEST_SECRETS_KEY);
  if (!active) {
    throw new Error('No SECRETS_KEY was configured in this process: stored secrets cannot be sealed or opened');
  }
  return active;
}

export function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

export function sealSecret(plain: string, keyring: Keyring = activeKeyring()): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyring.current.key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return `${PREFIX}${keyring.current.id}:${iv.toString('base64url')}:${tag.toString('base64url')}:${body.toString('base64url')}`;
}

/** The plain text of a sealed value. A value that is not sealed is refused (never trusted as plain). */
export function openSecret(stored: string, keyring: Keyring = activeKeyring()): string {
  if (!isSealed(stored)) throw new Error('A stored secret is not sealed');
  const [id, iv, tag, body] = stored.slice(PREFIX.length).split(':');
  const key = [keyring.current, ...keyring.previous].find((k) => k.id === id);
  if (!key || !iv || !tag || body === undefined) {
    throw new Error(`A stored secret was sealed with a key this process does not have (key id ${id ?? '?'})`);
  }
  const decipher = crypto.createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

/** Open a nullable column. */
export function openSecretOrNull(stored: string | null, keyring?: Keyring): string | null {
  return stored === null ? null : openSecret(stored, keyring);
}

/** Whether a sealed value was sealed with another key than the current one (to be re-sealed). */
export function sealedWithOldKey(stored: string, keyring: Keyring = activeKeyring()): boolean {
  return isSealed(stored) && !stored.startsWith(`${PREFIX}${keyring.current.id}:`);
}

/**
 * Every stored secret: table, key column, secret column, and for `app_settings` which keys hold
 * one. A new secret column is added here (the dump test in secrets.test.ts reads this list).
 */
export interface SecretColumn {
  table: string;
  key: string;
  column: string;
  keyLike?: string[];
}

export const SECRET_COLUMNS: readonly SecretColumn[] = [
  { table: 'sending_domains', key: 'id', column: 'dkim_private_key' },
  { table: 'webhook_endpoints', key: 'id', column: 'secret' },
  { table: 'webhook_endpoints', key: 'id', column: 'previous_secret' },
  { table: 'social_settings', key: 'user_id', column: 'webhook_secret' },
  { table: 'church_settings', key: 'user_id', column: 'sms_auth_token' },
  {
    table: 'app_settings',
    key: 'key',
    column: 'value',
    keyLike: ['session_secret', 'tracking_secret', 'stripe_demo_webhook_secret', 'visit_salt:%'],
  },
];

/** What `resealSecrets` needs of a database handle: raw statements, as the tables' owner. */
export interface RawSql {
  query<R>(text: string, values: unknown[]): Promise<R[]>;
}

/**
 * Seal every stored secret still in clear (rows written before migration 0117, or by an older
 * instance during a rolling start) and re-seal those sealed with a previous key. Runs in the
 * migration that introduced sealing and after every migration run (cheap: it reads only the
 * secret columns of a few small tables). Returns how many values it sealed.
 */
export async function resealSecrets(
  db: RawSql,
  { columns = SECRET_COLUMNS, keyring }: { columns?: readonly SecretColumn[]; keyring?: Keyring } = {},
): Promise<number> {
  let count = 0;
  for (const c of columns) {
    const filter = c.keyLike ? ` and (${c.keyLike.map((_, i) => `"${c.key}" like $${i + 1}`).join(' or ')})` : '';
    const rows = await db.query<{ k: string | number; v: string }>(
      `select "${c.key}" as k, "${c.column}" as v from "${c.table}" where "${c.column}" is not null${filter}`,
      c.keyLike ?? [],
    );
    for (const row of rows) {
      let plain: string;
      if (!isSealed(row.v)) plain = row.v;
      else if (sealedWithOldKey(row.v, keyring ?? activeKeyring())) plain = openSecret(row.v, keyring);
      else continue;
      await db.query(`update "${c.table}" set "${c.column}" = $1 where "${c.key}" = $2 and "${c.column}" = $3`, [
        sealSecret(plain, keyring),
        row.k,
        row.v,
      ]);
      count += 1;
    }
  }
  return count;
}
