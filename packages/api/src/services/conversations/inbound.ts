import { sql, type Db } from '@lampstand/db';
import { badRequest, isBadInputDbError } from '../../errors.js';
import { isCleanText, notAllowedMessage } from '../../shared/text.js';
import { smsKeyword } from '../../shared/sms.js';
import { PUBLIC_ACTOR } from '../events/record.js';
import { actingAs } from '../events/actor.js';
import { lockedBatches } from '../background/locked.js';
import type { JobQueue } from '../../jobs.js';
import type { SmsTransport } from '../../providers/sms.js';
import { sendSharedQuestions, SHARED_NUMBER_ROUTING_DAYS } from './shared-number.js';
import type { StoredText } from './inbound-routing.js';
import { processTexts } from './inbound-process.js';

export { SHARED_NUMBER_ROUTING_DAYS };

/** The longest MessageSid, From or To a webhook may carry (Twilio's SIDs are 34 characters). */
const MAX_TWILIO_ID = 64;

/** How many stored texts one transaction of the 'sms-inbound-process' job takes. */
export const INBOUND_BATCH = 500;

export interface InboundReceipt {
  /** The one text to send back (TwiML): a STOP/START/HELP confirmation, if any. */
  reply: string | null;
  /** The text was stored and waits for the 'sms-inbound-process' job (ask for it). */
  queued: boolean;
}

/**
 * An inbound text (Twilio's webhook). Stored once per provider message (a retried webhook finds it
 * stored, changes nothing and answers nothing), in one statement shared with the texts that arrive
 * at the same moment (`IntakeWriter`); the rest (its conversations, the
 * `sms.received` event, keyword actions) is done by the 'sms-inbound-process' job
 * (`processInboundTexts`), which the caller asks for when `queued`.
 *
 * STOP, START and HELP (and their other words, `smsKeyword`) are the exception: they are stored and
 * processed here, in one transaction, because their answer goes back in the webhook's response and
 * says what was done ('You are unsubscribed from …'): the opt-out takes effect before it is
 * confirmed, and no campaign text can slip out between the two.
 */
export async function receiveInboundSms(
  db: Db,
  params: Record<string, string>,
  platformNumber: string,
): Promise<InboundReceipt> {
  const sid = params.MessageSid ?? params.SmsSid ?? '';
  const from = params.From ?? '';
  const to = params.To ?? '';
  const body = params.Body ?? '';
  const service = params.MessagingServiceSid || null;
  // Refused here, alone, before it can join (and fail) a group-commit statement with other people's
  // texts: control characters (PostgreSQL cannot hold a NUL), as every text field of the product
  // refuses them, and an id or number longer than any Twilio sends (its unique index has a limit).
  for (const [field, value] of [
    ['MessageSid', sid],
    ['From', from],
    ['To', to],
    ['Body', body],
    ['MessagingServiceSid', service ?? ''],
  ] as const) {
    if (!isCleanText(value)) throw badRequest(notAllowedMessage(field), field);
    if (field !== 'Body' && value.length > MAX_TWILIO_ID)
      throw badRequest(`${field} must be at most ${MAX_TWILIO_ID} characters`, field);
  }
  const reserved = smsKeyword(body);
  if (!reserved) return { reply: null, queued: await intakeOf(db).store({ sid, from, to, service, body }) };
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: number; receivedAt: Date }>`
      insert into sms_inbound_messages (message_sid, from_number, to_number, messaging_service_sid, body, keyword, processed_at)
      values (${sid}, ${from}, ${to}, ${service}, ${body}, ${reserved}, now())
      on conflict (message_sid) do nothing
      returning id, created_at as received_at`.execute(trx);
    const stored = rows[0];
    if (!stored) return { reply: null, queued: false };
    const done = await processTexts(
      trx,
      [{ id: stored.id, from, to, service, body, receivedAt: stored.receivedAt }],
      platformNumber,
    );
    return { reply: done.replies.get(stored.id) ?? null, queued: false };
  });
}

interface IntakeRow {
  sid: string;
  from: string;
  to: string;
  service: string | null;
  body: string;
}

/**
 * Group commit of the webhook's rows: one insert (and one commit) in flight per database at a time;
 * the texts that arrive meanwhile wait for it and go together in the next, one multi-row statement.
 * A text alone is written at once (nothing waits for a timer); at a thousand a second each statement
 * carries the few texts of the previous one's round trip. Each webhook answers only after the
 * statement that holds its text has committed. If the database is down, every webhook in it fails
 * (500) and Twilio posts them again; if the database refuses one text's value, the statement is
 * tried again a text at a time, so only that text fails (400).
 */
class IntakeWriter {
  private waiting: { row: IntakeRow; done: (stored: boolean) => void; failed: (err: unknown) => void }[] = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  /** True when the text was stored now; false when its MessageSid was stored before. */
  store(row: IntakeRow): Promise<boolean> {
    return new Promise((done, failed) => {
      this.waiting.push({ row, done, failed });
      if (!this.writing) void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, INBOUND_BATCH);
      try {
        const stored = await this.insert(batch.map((b) => b.row));
        for (const b of batch) b.done(stored.delete(b.row.sid));
      } catch (err) {
        if (batch.length > 1 && isBadInputDbError(err)) {
          // A value PostgreSQL refuses (the checks in receiveInboundSms stop every one known; this
          // is the net under them) fails only its own text: the statement is tried again a text
          // at a time, so the texts beside it are not lost.
          for (const b of batch)
            await this.insert([b.row]).then(
              (stored) => b.done(stored.has(b.row.sid)),
              (e: unknown) => b.failed(e),
            );
        } else for (const b of batch) b.failed(err);
      }
    }
    this.writing = false;
  }

  /** One multi-row insert; the MessageSids it stored (a retried one is not stored again). */
  private async insert(batch: IntakeRow[]): Promise<Set<string>> {
    const { rows } = await sql<{ messageSid: string }>`
      insert into sms_inbound_messages (message_sid, from_number, to_number, messaging_service_sid, body)
      select * from unnest(${batch.map((b) => b.sid)}::text[], ${batch.map((b) => b.from)}::text[],
                           ${batch.map((b) => b.to)}::text[], ${batch.map((b) => b.service)}::text[],
                           ${batch.map((b) => b.body)}::text[])
      on conflict (message_sid) do nothing
      returning message_sid`.execute(this.db);
    return new Set(rows.map((r) => r.messageSid));
  }
}

const intakeWriters = new WeakMap<Db, IntakeWriter>();
function intakeOf(db: Db): IntakeWriter {
  let writer = intakeWriters.get(db);
  if (!writer) intakeWriters.set(db, (writer = new IntakeWriter(db)));
  return writer;
}

/**
 * The 'sms-inbound-process' job: the stored texts not yet processed, in batches of `batchSize`,
 * each claimed for the length of the transaction that processes it and marks it processed (the
 * claim primitive's `lockedBatches`), so any number of workers share the work and each text is
 * processed exactly once (a worker that dies mid-batch leaves its rows to the next). Keyword
 * replies and task notices are deliveries written in the batch: their deliver jobs are asked for
 * after the commit (the engine's sweep finds any a dead worker never asked for). Returns how many
 * texts it processed.
 */
export async function processInboundTexts(
  deps: { db: Db; jobs: JobQueue; sms?: SmsTransport },
  platformNumber: string,
  opts: { batchSize?: number } = {},
): Promise<number> {
  const batchSize = opts.batchSize ?? INBOUND_BATCH;
  let total = 0;
  const batches = lockedBatches(deps.db, {
    due: (trx) =>
      trx
        .selectFrom('smsInboundMessages')
        .select(['id', 'fromNumber as from', 'toNumber as to', 'messagingServiceSid as service', 'body'])
        .select('createdAt as receivedAt')
        .where('processedAt', 'is', null)
        .orderBy('id'),
    limit: batchSize,
    work: (trx, rows: StoredText[]) => processBatch(actingAs(trx, PUBLIC_ACTOR), rows, platformNumber),
  });
  for await (const { rows, out } of batches) {
    for (const conversationId of out.repliesQueued)
      await deps.jobs.send('conversation-reply-deliver', { conversationId });
    for (const userId of out.taskNotices) await deps.jobs.send('task-notice-deliver', { userId });
    total += rows;
    if (rows < batchSize && out.released === 0) break;
  }
  if (deps.sms) await sendSharedQuestions({ db: deps.db, sms: deps.sms }, platformNumber);
  return total;
}

/** One batch of stored texts, in the transaction that holds them: processed, and marked so. */
async function processBatch(trx: Db, rows: StoredText[], platformNumber: string) {
  const result = await processTexts(
    trx,
    rows.map((r) => ({ ...r, id: Number(r.id) })),
    platformNumber,
  );
  await sql`update sms_inbound_messages set processed_at = now(),
              held_at = case when id = any(${result.held}::bigint[]) then now() end
            where id = any(${rows.map((r) => r.id)}::bigint[])`.execute(trx);
  // An answer releases its sender's held texts to the intake: the next round routes them to the
  // church chosen.
  const released = result.answered.length
    ? Number(
        (
          await sql`update sms_inbound_messages set processed_at = null, held_at = null
                    where held_at is not null and to_number = ${platformNumber}
                      and from_number = any(${result.answered}::text[])`.execute(trx)
        ).numAffectedRows ?? 0,
      )
    : 0;
  return { ...result, released };
}
