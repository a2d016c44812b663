import { describe, expect, it } from 'vitest';
import { PostgresQueryCompiler, type KyselyPlugin } from 'kysely';
import type { Db } from '@lampstand/db';
import { freshDatabase } from '@lampstand/db/test/fresh-db';
import { registerUser } from '../auth/register-user.js';
import type { SmsMessage } from '../../providers/sms.js';
import type { EmailMessage } from '../../providers/email.js';
import { recordingDeliveryDeps } from '../delivery/test-deps.js';
import { deliverPortalMessages } from './messages.js';
import { redeemPortalCode, redeemPortalLink, requestPortalSignIn, type PortalChurch } from './sign-in.js';

const { db } = await freshDatabase();
const user = await registerUser(db, {
  username: 'grace',
  password: 'secret12',
  churchName: 'Grace',
  email: 'g@example.org',
});
await db.insertInto('churchProfiles').values({ userId: user.id, handle: 'grace-city' }).execute();
const church: PortalChurch = { userId: user.id, churchName: 'Grace', handle: 'grace-city' };
const phone = '+15551230001';
const email = 'ann@example.org';
await db
  .insertInto('contacts')
  .values({ userId: user.id, firstName: 'Ann', lastName: 'Lee', email, phone, phoneE164: phone })
  .execute();

// The worker's side: the engine with transports that record what they were handed.
const { deps: delivery, sent: jobsAsked } = recordingDeliveryDeps(db);
const texts: SmsMessage[] = [];
const emails: EmailMessage[] = [];
delivery.sms = { kind: 'outbox', send: async (m) => (texts.push(m), { providerMessageId: `SM${texts.length}` }) };
delivery.email = {
  kind: 'outbox',
  send: async (m) => (emails.push(m), { providerMessageId: m.messageId }),
  close: async () => {},
};

/** The request's side: no transport at all, only the database and the job queue. */
const portal = (handle: Db = db) => ({
  db: handle,
  jobs: delivery.jobs,
  publicUrl: 'http://localhost',
  canText: true,
});

const ask = (address: string, handle?: Db) =>
  requestPortalSignIn(portal(handle), church, { address, clientKey: `test-${Math.random()}` });

/** Ask for a code by SMS and let the worker send it; the code texted. */
async function askForCode(): Promise<string> {
  await ask(phone);
  await deliverPortalMessages(delivery, user.id);
  return /\d{6}/.exec(texts.at(-1)!.body)![0];
}

/** The statements a handle runs, with their parameters' places but not their values. */
function recordingStatements(): { handle: Db; statements: string[] } {
  const statements: string[] = [];
  const compiler = new PostgresQueryCompiler();
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      statements.push(compiler.compileQuery(args.node, args.queryId).sql);
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { handle: db.withPlugin(plugin), statements };
}

describe('portal sign-in', () => {
  it('answers without sending: the link is a delivery the worker sends, and its text is then deleted', async () => {
    const before = emails.length;
    await ask(email);
    expect(emails.length).toBe(before);
    const queued = await db
      .selectFrom('deliveries')
      .select(['id', 'status', 'kind'])
      .where('address', '=', email)
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ status: 'pending', kind: 'portal' });
    expect(jobsAsked.at(-1)).toEqual({ name: 'portal-deliver', data: { userId: user.id } });

    await deliverPortalMessages(delivery, user.id);
    const mail = emails.at(-1)!;
    expect(mail.to).toBe(email);
    const token = /\/c\/grace-city\/me\/link\/([\w-]+)/.exec(mail.text)![1]!;
    expect((await redeemPortalLink(db, church, token)).state).toBe('ready');
    const left = await db.selectFrom('portalMessages').select('deliveryId').execute();
    expect(left).toEqual([]);
  });

  it('a known and an unknown address run the same statements; only the known one is sent to', async () => {
    for (const [known, unknown] of [
      [email, 'nobody@example.org'],
      [phone, '+15559870000'],
    ] as const) {
      const a = recordingStatements();
      await ask(known, a.handle);
      const b = recordingStatements();
      await ask(unknown, b.handle);
      expect(a.statements.length).toBeGreaterThan(0);
      expect(b.statements).toEqual(a.statements);
    }
    const unknownRows = await db
      .selectFrom('deliveries')
      .select('id')
      .where('address', 'in', ['nobody@example.org', '+15559870000'])
      .execute();
    expect(unknownRows).toEqual([]);
  });

  it('a new code cancels the earlier ones', async () => {
    const first = await askForCode();
    const second = await askForCode();
    expect(second).not.toBe(first);
    expect((await redeemPortalCode(db, church, { address: phone, code: first })).state).toBe('expired');
    const used = await redeemPortalCode(db, church, { address: phone, code: second });
    expect(used.state).toBe('ready');
    expect(used.contactIds).toHaveLength(1);
  });
});
