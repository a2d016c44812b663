import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { databaseKey, openSecret, sealSecret, type Db } from '@lampstand/db';
import { conflict, notFound } from '../../errors.js';
import type { DnsRecord, DnsRecordKey, SendingDomain } from '../../schemas/sending-domains.js';
import type { DeliveryConfig } from '../delivery/config.js';

/** What the records and the lookups need from the server's configuration. */
export type SendingDomainConfig = Pick<
  DeliveryConfig,
  'publicUrl' | 'emailFrom' | 'bounceDomain' | 'spfInclude' | 'dnsServer'
>;

/** The host under the church's domain that its mail's return path (VERP) uses once verified. */
export const RETURN_PATH_HOST = 'bounces';

const platformHost = (c: SendingDomainConfig) => new URL(c.publicUrl).hostname || 'lampstand.local';
/** Where bounces are received: the CNAME target of the church's return-path host. */
export const bounceHost = (c: SendingDomainConfig) => c.bounceDomain ?? platformHost(c);
/** What the church's SPF record includes (EMAIL_SPF_INCLUDE; default spf.<bounce domain>). */
export const spfInclude = (c: SendingDomainConfig) => c.spfInclude ?? `spf.${bounceHost(c)}`;
/** The local part of the platform's sending address ('news' of news@lampstand.org). */
const localPart = (c: SendingDomainConfig) => {
  const address = /<([^>]+)>/.exec(c.emailFrom)?.[1] ?? c.emailFrom;
  return address.split('@')[0] || 'news';
};

type Row = {
  id: number;
  domain: string;
  dkimSelector: string;
  dkimPublicKey: string;
  verifiedAt: Date | null;
  checkedAt: Date | null;
  checkResults: Record<string, unknown>[] | null;
  createdAt: Date;
};

/** The records to add, as shown (status from the last Verify, if any). */
function recordsOf(row: Row, config: SendingDomainConfig): DnsRecord[] {
  const checked = new Map((row.checkResults ?? []).map((r) => [r.key as DnsRecordKey, r]));
  const base: Omit<DnsRecord, 'status' | 'problem'>[] = [
    {
      key: 'dkim',
      label: 'DKIM',
      type: 'TXT',
      name: `${row.dkimSelector}._domainkey.${row.domain}`,
      value: `v=DKIM1; k=rsa; p=${row.dkimPublicKey}`,
      required: true,
    },
    {
      key: 'spf',
      label: 'SPF',
      type: 'TXT',
      name: row.domain,
      value: `v=spf1 include:${spfInclude(config)} ~all`,
      required: true,
    },
    {
      key: 'dmarc',
      label: 'DMARC',
      type: 'TXT',
      name: `_dmarc.${row.domain}`,
      value: `v=DMARC1; p=none; rua=mailto:dmarc@${row.domain}`,
      required: false,
    },
    {
      key: 'returnPath',
      label: 'Return path',
      type: 'CNAME',
      name: `${RETURN_PATH_HOST}.${row.domain}`,
      value: bounceHost(config),
      required: true,
    },
  ];
  return base.map((r) => {
    const c = checked.get(r.key);
    return {
      ...r,
      status: (c?.status as DnsRecord['status'] | undefined) ?? 'unchecked',
      problem: (c?.problem as string | null | undefined) ?? null,
    };
  });
}

function toOutput(row: Row, config: SendingDomainConfig): SendingDomain {
  return {
    id: row.id,
    domain: row.domain,
    status: row.verifiedAt ? 'verified' : 'pending',
    fromAddress: `${localPart(config)}@${row.domain}`,
    records: recordsOf(row, config),
    verifiedAt: row.verifiedAt ? new Date(row.verifiedAt).toISOString() : null,
    checkedAt: row.checkedAt ? new Date(row.checkedAt).toISOString() : null,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

const COLUMNS = [
  'id',
  'domain',
  'dkimSelector',
  'dkimPublicKey',
  'verifiedAt',
  'checkedAt',
  'checkResults',
  'createdAt',
] as const;

export async function listSendingDomains(db: Db, tenantId: number, config: SendingDomainConfig) {
  const rows = await db
    .selectFrom('sendingDomains')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map((r) => toOutput(r, config));
}

/** A new RSA-2048 key pair: the private key (PEM) and the public key as a DKIM record's `p=` (base64 DER). */
function dkimKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  };
}

export async function addSendingDomain(
  db: Db,
  tenantId: number,
  input: { domain: string },
  config: SendingDomainConfig,
) {
  const keys = dkimKeyPair();
  // A selector of its own per key ('ls' and 8 hex digits), so a new key never clashes with an old record.
  const selector = `ls${randomBytes(4).toString('hex')}`;
  const row = await db
    .insertInto('sendingDomains')
    .values({
      userId: tenantId,
      domain: input.domain,
      dkimSelector: selector,
      dkimPrivateKey: sealSecret(keys.privateKey),
      dkimPublicKey: keys.publicKey,
    })
    .onConflict((oc) => oc.columns(['userId', 'domain']).doNothing())
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!row) throw conflict('This domain is already added', 'domain');
  return toOutput(row, config);
}

export async function deleteSendingDomain(db: Db, tenantId: number, input: { id: number }) {
  const row = await db
    .deleteFrom('sendingDomains')
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw notFound('Sending domain not found');
  forgetChurchSender(db, tenantId);
  return row;
}

/** A resolver asking DNS_SERVER (host or host:port) when configured, else the system's servers. */
export function dnsResolver(config: Pick<SendingDomainConfig, 'dnsServer'>): Resolver {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (config.dnsServer) resolver.setServers([config.dnsServer]);
  return resolver;
}

type Found = { ok: true; values: string[] } | { ok: false; problem: string };

const NOT_THERE = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

async function lookup(run: () => Promise<string[]>): Promise<Found> {
  try {
    return { ok: true, values: await run() };
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (NOT_THERE.has(code)) return { ok: true, values: [] };
    return { ok: false, problem: `The DNS lookup failed (${code || 'no answer'}); try again in a few minutes.` };
  }
}

const tags = (record: string) =>
  new Map(
    record
      .split(';')
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => {
        const i = t.indexOf('=');
        return [t.slice(0, i).trim().toLowerCase(), t.slice(i + 1).replace(/\s+/g, '')] as const;
      }),
  );

type Check = { key: DnsRecordKey; status: 'ok' | 'missing' | 'wrong'; problem: string | null };

/** Each record looked up and compared with what was shown. */
async function checkRecords(row: Row, config: SendingDomainConfig): Promise<Check[]> {
  const resolver = dnsResolver(config);
  const txt = (name: string) => lookup(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  const shown = new Map(recordsOf(row, config).map((r) => [r.key, r]));
  const missing = (key: DnsRecordKey): Check => ({
    key,
    status: 'missing',
    problem: `No ${shown.get(key)!.type} record named ${shown.get(key)!.name} was found.`,
  });
  const [dkim, spf, dmarc, returnPath] = await Promise.all([
    txt(shown.get('dkim')!.name),
    txt(row.domain),
    txt(shown.get('dmarc')!.name),
    lookup(() => resolver.resolveCname(shown.get('returnPath')!.name)),
  ]);
  const checks: Check[] = [];

  if (!dkim.ok) checks.push({ key: 'dkim', status: 'missing', problem: dkim.problem });
  else {
    const keys = dkim.values.filter((v) => /(^|;)\s*p=/i.test(v));
    if (keys.length === 0) checks.push(missing('dkim'));
    else if (keys.some((v) => tags(v).get('p') === row.dkimPublicKey))
      checks.push({ key: 'dkim', status: 'ok', problem: null });
    else
      checks.push({
        key: 'dkim',
        status: 'wrong',
        problem: 'The DKIM record has another key: copy the value shown again, in full.',
      });
  }

  if (!spf.ok) checks.push({ key: 'spf', status: 'missing', problem: spf.problem });
  else {
    const records = spf.values.filter((v) => /^v=spf1(\s|$)/i.test(v.trim()));
    const include = spfInclude(config).toLowerCase();
    if (records.length === 0) checks.push(missing('spf'));
    else if (records.length > 1)
      checks.push({
        key: 'spf',
        status: 'wrong',
        problem: 'The domain has more than one SPF record: merge them into one.',
      });
    else if (!records[0]!.toLowerCase().split(/\s+/).includes(`include:${include}`))
      checks.push({
        key: 'spf',
        status: 'wrong',
        problem: `The SPF record does not include ${include}: found "${records[0]}".`,
      });
    else checks.push({ key: 'spf', status: 'ok', problem: null });
  }

  if (!dmarc.ok) checks.push({ key: 'dmarc', status: 'missing', problem: dmarc.problem });
  else if (dmarc.values.some((v) => /^v=DMARC1(\s*;|$)/i.test(v.trim())))
    checks.push({ key: 'dmarc', status: 'ok', problem: null });
  else checks.push(missing('dmarc'));

  if (!returnPath.ok) checks.push({ key: 'returnPath', status: 'missing', problem: returnPath.problem });
  else if (returnPath.values.length === 0) checks.push(missing('returnPath'));
  else {
    const target = bounceHost(config).toLowerCase();
    const found = returnPath.values.map((v) => v.toLowerCase().replace(/\.$/, ''));
    checks.push(
      found.includes(target)
        ? { key: 'returnPath', status: 'ok', problem: null }
        : {
            key: 'returnPath',
            status: 'wrong',
            problem: `The return path points to ${found[0]} instead of ${target}.`,
          },
    );
  }
  return checks;
}

/**
 * Verify: look every record up (DNS_SERVER's resolver) and keep what was found. The domain is
 * verified when DKIM, SPF and the return path are right (DMARC is a suggestion); a later Verify that
 * finds one of them gone makes it pending again, and the church's mail goes From the platform again.
 */
export async function verifySendingDomain(
  db: Db,
  tenantId: number,
  input: { id: number },
  config: SendingDomainConfig,
) {
  const row = await db
    .selectFrom('sendingDomains')
    .select(COLUMNS)
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .executeTakeFirst();
  if (!row) throw notFound('Sending domain not found');
  const checks = await checkRecords(row, config);
  const required = new Set(
    recordsOf(row, config)
      .filter((r) => r.required)
      .map((r) => r.key),
  );
  const verified = checks.every((c) => !required.has(c.key) || c.status === 'ok');
  const updated = await db
    .updateTable('sendingDomains')
    .set({
      checkedAt: new Date(),
      checkResults: JSON.stringify(checks),
      verifiedAt: verified ? (row.verifiedAt ?? new Date()) : null,
    })
    .where('id', '=', row.id)
    .where('userId', '=', tenantId)
    .returning(COLUMNS)
    .executeTakeFirst();
  if (!updated) throw notFound('Sending domain not found');
  forgetChurchSender(db, tenantId);
  return toOutput(updated, config);
}

/** How a church's mail is sent: its verified domain and DKIM key (if any), and its Reply-To. */
export interface ChurchSender {
  replyTo: string | null;
  domain: { name: string; selector: string; privateKey: string } | null;
}

const SENDER_TTL_MS = 10_000;
type SenderCache = Map<number, { at: number; sender: Promise<ChurchSender> }>;
const senders = new WeakMap<object, SenderCache>();

function forgetChurchSender(db: Db, userId: number) {
  senders.get(databaseKey(db))?.delete(userId);
}

/**
 * The church's sender for a message sent on its behalf, kept 10 s per process (a Verify or a
 * delete in this process forgets it at once): its newest verified domain, and the church's email
 * address for Reply-To.
 */
export function churchSender(db: Db, userId: number): Promise<ChurchSender> {
  const key = databaseKey(db);
  let cache = senders.get(key);
  if (!cache) {
    cache = new Map() as SenderCache;
    senders.set(key, cache);
  }
  const hit = cache.get(userId);
  if (hit && Date.now() - hit.at < SENDER_TTL_MS) return hit.sender;
  const sender = (async (): Promise<ChurchSender> => {
    const church = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
    const domain = await db
      .selectFrom('sendingDomains')
      .select(['domain', 'dkimSelector', 'dkimPrivateKey'])
      .where('userId', '=', userId)
      .where('verifiedAt', 'is not', null)
      .orderBy('verifiedAt', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return {
      replyTo: church?.email || null,
      domain: domain
        ? { name: domain.domain, selector: domain.dkimSelector, privateKey: openSecret(domain.dkimPrivateKey) }
        : null,
    };
  })();
  cache.set(userId, { at: Date.now(), sender });
  sender.catch(() => cache.delete(userId));
  return sender;
}
