import type { FastifyInstance } from 'fastify';
import {
  applySmsStatus,
  EMAIL_EVENT_PROVIDERS,
  handleProviderEvent,
  PUBLIC_ACTOR,
  receiveInboundSms,
  twilioWebhookTokens,
  validTwilioSignature,
  actingAs,
} from '@lampstand/api/server';
import { escapeHtml } from '@lampstand/api/render/html';
import type { AppDeps } from './app-deps.js';

/** How long an incoming text may wait before this process asks for the texts to be processed. */
const INBOUND_ASK_MS = 50;

/**
 * The providers' webhooks: Twilio's status callbacks and incoming texts, and the email providers'
 * bounce and complaint events. Server to server, each verified by its provider's signature: they
 * are registered outside the cookie and session scope (no session is read or made for them), and
 * cost what their own work costs (`pnpm bench:inbound`).
 */
export async function providerWebhookRoutes(app: FastifyInstance, opts: { deps: AppDeps }): Promise<void> {
  const { db, delivery } = opts.deps;

  // Twilio posts application/x-www-form-urlencoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  /**
   * Twilio webhooks: form-encoded, signed over PUBLIC_URL + path + params with the auth token of the
   * account that sent or received the text: the platform's, or a church's own (`twilioWebhookTokens`:
   * a text to a church's own number on its own account is checked with that church's token only).
   */
  async function twilioParams(
    req: { body: unknown; url: string; headers: Record<string, string | string[] | undefined> },
    kind: 'inbound' | 'status',
  ) {
    const params = Object.fromEntries(
      Object.entries((req.body ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    );
    const header = req.headers['x-twilio-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature) return { params, ok: false };
    const tokens = await twilioWebhookTokens(db, params, { kind, platformToken: delivery.twilioAuthToken });
    const ok = tokens.some((token) =>
      validTwilioSignature(token, `${delivery.publicUrl}${req.url}`, params, signature),
    );
    return { params, ok };
  }

  app.post('/api/sms/status', { config: { publicNoCsrf: true } }, async (req, reply) => {
    const { params, ok } = await twilioParams(req, 'status');
    if (!ok) return reply.code(403).send({ message: 'Invalid Twilio signature', code: 'FORBIDDEN' });
    await applySmsStatus(db, params);
    return reply.code(204).send();
  });

  // The 'sms-inbound-process' job, asked for at most once per INBOUND_ASK_MS by this process
  // (however many texts come in meanwhile; the queue keeps one waiting): the texts of those
  // milliseconds are then processed in one batch. A request never waits for it.
  let asking: NodeJS.Timeout | null = null;
  const askForProcessing = () => {
    asking ??= setTimeout(() => {
      asking = null;
      opts.deps.jobs.send('sms-inbound-process', {}).catch((err: unknown) => {
        // The every-minute sweep processes the texts anyway.
        app.log.warn({ err }, 'could not ask for incoming texts to be processed');
      });
    }, INBOUND_ASK_MS);
  };
  app.addHook('onClose', async () => {
    if (asking) clearTimeout(asking);
  });

  // Incoming texts: /api/twilio/inbound is the address to set at Twilio; the older
  // /api/sms/inbound answers the same, for numbers configured before it. The text is stored (one
  // statement) and answered at once; the 'sms-inbound-process' job puts it on its conversations.
  for (const path of ['/api/twilio/inbound', '/api/sms/inbound']) {
    app.post(path, { config: { publicNoCsrf: true } }, async (req, reply) => {
      const { params, ok } = await twilioParams(req, 'inbound');
      if (!ok) return reply.code(403).send({ message: 'Invalid Twilio signature', code: 'FORBIDDEN' });
      // The person who texted acts (a provider's status callback is the system's).
      const result = await receiveInboundSms(actingAs(db, PUBLIC_ACTOR), params, delivery.smsFromNumber);
      if (result.queued) askForProcessing();
      const twiml = result.reply
        ? `<Response><Message>${escapeHtml(result.reply)}</Message></Response>`
        : '<Response></Response>';
      return reply.type('text/xml').send(`<?xml version="1.0" encoding="UTF-8"?>${twiml}`);
    });
  }

  // Provider event webhooks: Amazon SES through SNS (signature checked with SNS's
  // certificate), Postmark (basic auth). Unsigned or wrongly signed: 403, nothing stored.
  app.post<{ Params: { provider: string } }>(
    '/api/email/events/:provider',
    { config: { publicNoCsrf: true }, bodyLimit: 256 * 1024 },
    async (req, reply) => {
      const provider = EMAIL_EVENT_PROVIDERS.find((p) => p === req.params.provider);
      if (!provider) return reply.code(404).send({ message: 'Unknown email provider', code: 'NOT_FOUND' });
      const result = await handleProviderEvent(db, opts.deps.emailEvents, {
        provider,
        body: req.body,
        authorization: req.headers.authorization,
      });
      if (result.status !== 200)
        return reply
          .code(result.status)
          .send({ message: result.message, code: result.status === 403 ? 'FORBIDDEN' : 'BAD_REQUEST' });
      return reply.code(200).send({ ok: true, outcomes: result.outcomes });
    },
  );
}
