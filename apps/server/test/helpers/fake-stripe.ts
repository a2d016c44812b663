import http from 'node:http';
import crypto from 'node:crypto';

export interface StripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  /** The form body, flat: 'metadata[projectId]' => '12'. */
  form: Record<string, string>;
}

/**
 * A local HTTP server speaking the parts of Stripe's API that Lampstand uses: bearer auth with the
 * secret key, form-encoded POST /v1/payment_intents (the same Idempotency-Key answers the same
 * PaymentIntent, as Stripe does), POST /v1/accounts, POST /v1/account_links, GET /v1/accounts/{id};
 * for recurring gifts POST /v1/customers, POST /v1/setup_intents, and off-session PaymentIntents
 * (`confirm` + `off_session`): paid, unless the test made the customer's card decline
 * (`declineCustomer`, a 402 card_error as Stripe answers) or ask for 3-D Secure (`requireAction`);
 * for registrations POST /v1/refunds.
 */
export async function startFakeStripe(opts: { secretKey: string }) {
  const requests: StripeRequest[] = [];
  const byIdempotencyKey = new Map<string, unknown>();
  const accounts = new Map<string, { id: string; charges_enabled: boolean; details_submitted: boolean }>();
  const declining = new Set<string>();
  const needsAction = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${crypto.randomUUID()}` });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${opts.secretKey}`) {
        return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      }
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const key = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? '', path: url.pathname, idempotencyKey: key, form });
      const cached = key ? byIdempotencyKey.get(`${req.method} ${url.pathname} ${key}`) : undefined;
      if (cached) {
        // A declined charge asked again with its key answers the same 402, as Stripe does.
        const failed = cached as { declined?: unknown };
        return failed.declined ? json(402, failed.declined) : json(200, cached);
      }
      const remember = (body: unknown) => {
        if (key) byIdempotencyKey.set(`${req.method} ${url.pathname} ${key}`, body);
        return json(200, body);
      };

      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const amount = Number(form.amount);
        if (!Number.isInteger(amount) || amount < 50) {
          return json(400, {
            error: {
              type: 'invalid_request_error',
              code: 'amount_too_small',
              message: 'Amount must be at least $0.50 usd',
            },
          });
        }
        const id = `pi_${crypto.randomBytes(12).toString('hex')}`;
        const metadata = Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, v]) => [k.slice(9, -1), v]),
        );
        if (form.confirm === 'true' && form.off_session === 'true') {
          const pi = {
            id,
            object: 'payment_intent',
            amount,
            currency: form.currency,
            customer: form.customer,
            payment_method: form.payment_method,
            client_secret: `${id}_secret_${crypto.randomBytes(8).toString('hex')}`,
            metadata,
          };
          const customer = form.customer ?? '';
          if (declining.has(customer) || needsAction.has(customer)) {
            const action = needsAction.has(customer);
            const body = {
              error: {
                type: 'card_error',
                code: action ? 'authentication_required' : 'card_declined',
                message: action ? 'This payment requires authentication.' : 'Your card was declined.',
                payment_intent: {
                  ...pi,
                  status: action ? 'requires_action' : 'requires_payment_method',
                },
              },
            };
            if (key) byIdempotencyKey.set(`${req.method} ${url.pathname} ${key}`, { declined: body });
            return json(402, body);
          }
          return remember({ ...pi, status: 'succeeded' });
        }
        return remember({
          id,
          object: 'payment_intent',
          amount,
          currency: form.currency,
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${crypto.randomBytes(8).toString('hex')}`,
          metadata: Object.fromEntries(
            Object.entries(form)
              .filter(([k]) => k.startsWith('metadata['))
              .map(([k, v]) => [k.slice(9, -1), v]),
          ),
          receipt_email: form.receipt_email ?? null,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/customers') {
        return remember({
          id: `cus_${crypto.randomBytes(8).toString('hex')}`,
          object: 'customer',
          email: form.email ?? null,
          name: form.name ?? null,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/setup_intents') {
        const id = `seti_${crypto.randomBytes(12).toString('hex')}`;
        return remember({
          id,
          object: 'setup_intent',
          customer: form.customer ?? null,
          usage: form.usage ?? 'off_session',
          status: 'requires_payment_method',
          client_secret: `${id}_secret_${crypto.randomBytes(8).toString('hex')}`,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        return remember({
          id: `re_${crypto.randomBytes(12).toString('hex')}`,
          object: 'refund',
          amount: Number(form.amount),
          payment_intent: form.payment_intent,
          status: 'succeeded',
          currency: 'usd',
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/accounts') {
        const account = {
          id: `acct_${crypto.randomBytes(8).toString('hex')}`,
          charges_enabled: false,
          details_submitted: false,
        };
        accounts.set(account.id, account);
        return remember({ ...account, object: 'account', type: form.type });
      }
      if (req.method === 'POST' && url.pathname === '/v1/account_links') {
        return remember({
          object: 'account_link',
          url: `https://connect.stripe.test/setup/e/${form.account}`,
          expires_at: Math.floor(Date.now() / 1000) + 300,
        });
      }
      const accountMatch = /^\/v1\/accounts\/(acct_\w+)$/.exec(url.pathname);
      if (req.method === 'GET' && accountMatch) {
        const account = accounts.get(accountMatch[1]!);
        if (!account) return json(404, { error: { type: 'invalid_request_error', message: 'No such account' } });
        return json(200, { ...account, object: 'account' });
      }
      return json(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method} ${url.pathname})` },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Finish an account's onboarding (as Stripe would after the church fills in its details). */
    completeOnboarding(accountId: string) {
      const a = accounts.get(accountId);
      if (a) Object.assign(a, { charges_enabled: true, details_submitted: true });
    },
    /** The customer's saved card is declined from now on (or paid again with `false`). */
    declineCustomer(customer: string, decline = true) {
      if (decline) declining.add(customer);
      else declining.delete(customer);
    },
    /** The customer's bank asks for 3-D Secure on off-session charges. */
    requireAction(customer: string) {
      needsAction.add(customer);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
