import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2;
/** Argon2id (algorithm 2) with OWASP's minimum: 19 MiB memory, 2 passes, 1 lane. */
const OWASP = { algorithm: ARGON2ID, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
/**
 * Under vitest only (`VITEST` is set by vitest, never by the app): the test suites register many
 * hundreds of accounts, and an OWASP hash and its check cost about 20 ms of CPU (this cost: 0.6).
 * A check reads the cost from the hash itself. A test that checks the stored hash's cost sets
 * `PASSWORD_HASHING=owasp` while it runs.
 */
const UNDER_TEST = { algorithm: ARGON2ID, memoryCost: 1024, timeCost: 1, parallelism: 1 } as const;

function hashOptions() {
  return process.env.VITEST && process.env.PASSWORD_HASHING !== 'owasp' ? UNDER_TEST : OWASP;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, hashOptions());
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spend the same time as a real check when the username is unknown (no user enumeration by timing). */
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('lampstand-timing-equaliser');
  await verifyPassword(await dummyHash, password);
}
