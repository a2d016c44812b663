import { bypassDb, openSecret, sealSecret, sql, type Db } from '@lampstand/db';
import type { z } from 'zod';
import { badRequest, conflict } from '../../errors.js';
import type { smsNumberSchema, updateSmsNumberSchema } from '../../schemas/sms-number.js';
import { KEYWORDS_NEED_OWN_NUMBER } from '../../schemas/sms-number.js';
import { checkTwilioNumber, type ChurchSmsNumber } from '../../providers/sms.js';

type SmsNumberOut = z.output<typeof smsNumberSchema>;

/** What Settings → Texting needs beyond the database: the shared number and Twilio's API. */
export interface SmsNumberDeps {
  db: Db;
  sharedNumber: string;
  publicUrl: string;
  twilioApiBaseUrl: string;
}

const INBOUND_PATH = '/api/twilio/inbound';

async function settingsRow(db: Db, tenantId: number) {
  return db
    .selectFrom('churchSettings')
    .select(['smsFromNumber', 'smsMessagingServiceSid', 'smsAccountSid', 'smsAuthToken', 'smsNumberCheckedAt'])
    .where('userId', '=', tenantId)
    .executeTakeFirst();
}

const ownNumberOf = (row: { smsFromNumber: string | null; smsMessagingServiceSid: string | null } | undefined) =>
  !!(row?.smsFromNumber || row?.smsMessagingServiceSid);

export async function getSmsNumber(deps: SmsNumberDeps, tenantId: number): Promise<SmsNumberOut> {
  const row = await settingsRow(deps.db, tenantId);
  return {
    mode: ownNumberOf(row) ? 'own' : 'shared',
    sharedNumber: deps.sharedNumber,
    fromNumber: row?.smsFromNumber || null,
    messagingServiceSid: row?.smsMessagingServiceSid ?? null,
    accountSid: row?.smsAccountSid ?? null,
    // Only the last four characters: the token itself never leaves the server.
    authTokenHint: row?.smsAuthToken ? `…${openSecret(row.smsAuthToken).slice(-4)}` : null,
    checkedAt: row?.smsNumberCheckedAt?.toISOString() ?? null,
    inboundWebhookUrl: `${deps.publicUrl}${INBOUND_PATH}`,
  };
}

/**
 * Saves the church's own number (or Messaging Service) with its Twilio account, once Twilio
 * confirms, with those credentials, that the number is on that account (or the service exists).
 * The Auth Token is stored sealed; left out, the saved one is used (same account only).
 */
export async function saveSmsNumber(
  deps: SmsNumberDeps,
  tenantId: number,
  input: z.output<typeof updateSmsNumberSchema>,
): Promise<SmsNumberOut> {
  const { db } = deps;
  const current = await settingsRow(db, tenantId);
  const authToken =
    input.authToken ||
    (current?.smsAuthToken && current.smsAccountSid === input.accountSid ? openSecret(current.smsAuthToken) : null);
  if (!authToken) throw badRequest('Auth Token is required', 'authToken');
  if (input.fromNumber === deps.sharedNumber)
    throw badRequest('This is the shared number: enter a number of your own', 'fromNumber');
  const field = input.fromNumber ? 'fromNumber' : 'messagingServiceSid';
  // Read through the row-level security bypass (another church's row), numbers and services only.
  const taken = await sql<{ taken: boolean }>`
    select exists (select 1 from church_settings where user_id <> ${tenantId}
      and (sms_from_number = ${input.fromNumber} or sms_messaging_service_sid = ${input.messagingServiceSid})) as taken`.execute(
    bypassDb(db),
  );
  if (taken.rows[0]?.taken)
    throw conflict(
      input.fromNumber ? 'This number is used by another church' : 'This Messaging Service is used by another church',
      field,
    );
  const check = await checkTwilioNumber(
    deps.twilioApiBaseUrl,
    { accountSid: input.accountSid, authToken },
    input.fromNumber ? { fromNumber: input.fromNumber } : { messagingServiceSid: input.messagingServiceSid! },
  );
  if (check === 'bad-credentials')
    throw badRequest('Twilio refused this Account SID and Auth Token: check both', 'authToken');
  if (check === 'not-on-account')
    throw badRequest(
      input.fromNumber
        ? 'Twilio has no such number on this account'
        : 'Twilio has no such Messaging Service on this account',
      field,
    );
  if (check === 'unreachable') throw badRequest('Twilio could not be reached: try again in a minute', field);
  const values = {
    smsFromNumber: input.fromNumber,
    smsMessagingServiceSid: input.messagingServiceSid,
    smsAccountSid: input.accountSid,
    smsAuthToken: sealSecret(authToken),
    smsNumberCheckedAt: new Date(),
  };
  await db
    .insertInto('churchSettings')
    .values({ userId: tenantId, ...values })
    .onConflict((oc) => oc.column('userId').doUpdateSet({ ...values, updatedAt: new Date() }))
    .execute();
  return getSmsNumber(deps, tenantId);
}

/** Back to the shared number: the church's own number and credentials are forgotten. */
export async function removeSmsNumber(deps: SmsNumberDeps, tenantId: number): Promise<SmsNumberOut> {
  await deps.db
    .updateTable('churchSettings')
    .set({
      smsFromNumber: null,
      smsMessagingServiceSid: null,
      smsAccountSid: null,
      smsAuthToken: null,
      smsNumberCheckedAt: null,
      updatedAt: new Date(),
    })
    .where('userId', '=', tenantId)
    .execute();
  return getSmsNumber(deps, tenantId);
}

/** Keywords are for a church's own number: refused on the shared one, saying why. */
export async function assertOwnSmsNumber(db: Db, tenantId: number): Promise<void> {
  if (!ownNumberOf(await settingsRow(db, tenantId))) throw badRequest(KEYWORDS_NEED_OWN_NUMBER, 'keyword');
}

/** The church's own number as its texts are sent (`withChurchNumbers`); null on the shared number. */
export async function churchSmsNumber(db: Db, userId: number): Promise<ChurchSmsNumber | null> {
  const row = await settingsRow(db, userId);
  if (!ownNumberOf(row)) return null;
  return {
    fromNumber: row!.smsFromNumber || null,
    messagingServiceSid: row!.smsMessagingServiceSid ?? null,
    account:
      row!.smsAccountSid && row!.smsAuthToken
        ? { accountSid: row!.smsAccountSid, authToken: openSecret(row!.smsAuthToken) }
        : null,
  };
}

/**
 * The auth tokens a Twilio webhook may be signed with. An incoming text to a church's own number
 * (`To`) or Messaging Service: that church's token when the number is on its own account (and only
 * it: no other church's or the platform's token can forge a text to it), else the platform's. A
 * status callback: the platform's, and the token of the church whose account (`AccountSid`) sent it.
 */
export async function twilioWebhookTokens(
  db: Db,
  params: Record<string, string>,
  opts: { kind: 'inbound' | 'status'; platformToken: string | undefined },
): Promise<string[]> {
  const platform = opts.platformToken ? [opts.platformToken] : [];
  if (opts.kind === 'inbound') {
    const { rows } = await sql<{ token: string | null }>`
      select sms_auth_token as token from church_settings
      where (sms_from_number = ${params.To ?? ''} and sms_from_number <> '')
         or sms_messaging_service_sid = ${params.MessagingServiceSid ?? ''}
      order by user_id limit 1`.execute(db);
    const owner = rows[0];
    return owner?.token ? [openSecret(owner.token)] : platform;
  }
  const { rows } = await sql<{ token: string }>`
    select sms_auth_token as token from church_settings
    where sms_auth_token is not null and sms_account_sid = ${params.AccountSid ?? ''}
    order by user_id limit 10`.execute(db);
  return [...platform, ...rows.map((r) => openSecret(r.token))];
}
