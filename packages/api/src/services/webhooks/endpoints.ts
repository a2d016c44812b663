import { openSecret, sealSecret, sql, type Db, type Row } from '@lampstand/db';
import { badRequest, notFound } from '../../errors.js';
import { hasForbiddenLiteralHost, type OutboundReach } from '../../providers/network-address.js';
import {
  MAX_WEBHOOK_ENDPOINTS,
  TOO_MANY_ENDPOINTS,
  WEBHOOK_HTTPS_MESSAGE,
  WEBHOOK_PRIVATE_MESSAGE,
  type WebhookOut,
} from '../../schemas/webhooks.js';
import type { EventType } from '../../schemas/events.js';
import { deleteChurchRow, findChurchRow } from '../church-rows.js';
import { newWebhookSecret } from './signing.js';
import { wakeWebhookWorkers } from './wake.js';
import { laterCursor, logEnd } from '../events/log.js';

/** Where endpoints may point: plain http only in development and tests, and how far they may reach. */
export interface WebhookPolicy {
  allowHttp: boolean;
  reach: OutboundReach;
}

/** After a rotation the previous secret still signs deliveries this long. */
export const PREVIOUS_SECRET_HOURS = 24;
const MISSING = 'Webhook not found';

const COLUMNS = [
  'id',
  'url',
  'description',
  'eventTypes',
  'disabledAt',
  'disabledReason',
  'secret',
  'previousSecretUntil',
  'createdAt',
] as const;
type EndpointRow = Pick<Row<'webhookEndpoints'>, (typeof COLUMNS)[number]>;

function toWebhookOut(row: EndpointRow): WebhookOut {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.disabledAt === null,
    disabledReason: row.disabledReason,
    disabledAt: row.disabledAt,
    secretHint: `${openSecret(row.secret).slice(0, 10)}…`,
    previousSecretUntil:
      row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil : null,
    createdAt: row.createdAt,
  };
}

/** A URL an endpoint may have: https (http too in development), and not a private address by its spelling. */
function checkUrl(policy: WebhookPolicy, url: string): void {
  if (!policy.allowHttp && !url.toLowerCase().startsWith('https://')) throw badRequest(WEBHOOK_HTTPS_MESSAGE, 'url');
  if (hasForbiddenLiteralHost(url, policy.reach)) throw badRequest(WEBHOOK_PRIVATE_MESSAGE, 'url');
}

export async function listWebhooks(db: Db, tenantId: number): Promise<WebhookOut[]> {
  const rows = await db
    .selectFrom('webhookEndpoints')
    .select(COLUMNS)
    .where('userId', '=', tenantId)
    .orderBy('id')
    .execute();
  return rows.map(toWebhookOut);
}

export async function getWebhook(db: Db, tenantId: number, { id }: { id: number }): Promise<WebhookOut> {
  return toWebhookOut(
    await findChurchRow(db, tenantId, { table: 'webhookEndpoints', id, missing: MISSING, columns: COLUMNS }),
  );
}

/**
 * A new endpoint, with its secret (shown this once). It receives the events recorded from now on:
 * its cursor starts after the church's settled events (events/log.ts), so an event whose
 * transaction was still running reaches it too.
 */
export async function createWebhook(
  deps: { db: Db; policy: WebhookPolicy },
  tenantId: number,
  input: { url: string; eventTypes: EventType[] | null; description: string | null },
): Promise<WebhookOut & { secret: string }> {
  checkUrl(deps.policy, input.url);
  return deps.db.transaction().execute(async (trx) => {
    // One church's creations one at a time, so two at once cannot pass the limit together.
    await sql`select pg_advisory_xact_lock(${0x5748_0001}::int, ${tenantId}::int)`.execute(trx);
    const { n } = await trx
      .selectFrom('webhookEndpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', tenantId)
      .executeTakeFirstOrThrow();
    if (n >= MAX_WEBHOOK_ENDPOINTS) throw badRequest(TOO_MANY_ENDPOINTS, 'url');
    const secret = newWebhookSecret();
    const start = await logEnd(trx, tenantId);
    const row = await trx
      .insertInto('webhookEndpoints')
      .values({
        userId: tenantId,
        url: input.url,
        description: input.description ?? '',
        eventTypes: input.eventTypes,
        secret: sealSecret(secret),
        lastEventXid: start.xid,
        lastEventId: start.id,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return { ...toWebhookOut(row), secret };
  });
}

/**
 * A partial change. Turning an endpoint back on clears its failure streak and starts it at the
 * church's latest event (what happened while it was off stays in GET /api/events); its pending
 * deliveries resume.
 */
export async function updateWebhook(
  deps: { db: Db; policy: WebhookPolicy },
  tenantId: number,
  input: { id: number; url?: string; eventTypes?: EventType[] | null; description?: string | null; enabled?: boolean },
): Promise<WebhookOut> {
  if (input.url !== undefined) checkUrl(deps.policy, input.url);
  const current = await findChurchRow(deps.db, tenantId, {
    table: 'webhookEndpoints',
    id: input.id,
    missing: MISSING,
    columns: ['disabledAt'],
  });
  const wasOn = current.disabledAt === null;
  const end = input.enabled === true && !wasOn ? await logEnd(deps.db, tenantId) : null;
  const row = await deps.db
    .updateTable('webhookEndpoints')
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
      ...(input.description !== undefined ? { description: input.description ?? '' } : {}),
      ...(input.enabled === false && wasOn ? { disabledAt: new Date(), disabledReason: 'staff' as const } : {}),
      ...(end
        ? {
            disabledAt: null,
            disabledReason: null,
            failingSince: null,
            // Never back: a dispatch may have moved it meanwhile.
            ...laterCursor(end),
          }
        : {}),
      updatedAt: new Date(),
    })
    .where('id', '=', input.id)
    .where('userId', '=', tenantId)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  if (input.enabled === true && !wasOn) await wakeWebhookWorkers(deps.db);
  return toWebhookOut(row);
}

export function deleteWebhook(db: Db, tenantId: number, { id }: { id: number }) {
  return deleteChurchRow(db, tenantId, { table: 'webhookEndpoints', id, missing: MISSING });
}

/** A new secret, shown once; the one it replaces keeps signing (beside it) for 24 hours. */
export async function rotateWebhookSecret(
  db: Db,
  tenantId: number,
  { id }: { id: number },
): Promise<{ secret: string; previousSecretUntil: Date }> {
  const secret = newWebhookSecret();
  const row = await db
    .updateTable('webhookEndpoints')
    .set({
      previousSecret: sql<string>`secret`,
      previousSecretUntil: sql<Date>`now() + make_interval(hours => ${PREVIOUS_SECRET_HOURS})`,
      secret: sealSecret(secret),
      updatedAt: new Date(),
    })
    .where('id', '=', id)
    .where('userId', '=', tenantId)
    .returning(['previousSecretUntil'])
    .executeTakeFirst();
  if (!row?.previousSecretUntil) throw notFound(MISSING);
  return { secret, previousSecretUntil: row.previousSecretUntil };
}
