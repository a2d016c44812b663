import http from 'node:http';
import crypto from 'node:crypto';

export interface TwilioRequest {
  To: string;
  From: string;
  MessagingServiceSid?: string;
  Body: string;
  StatusCallback?: string;
  sid: string;
  /** The account that sent it (its Account SID). */
  account: string;
}

/** An account the peer knows: its credentials, its numbers and Messaging Services. */
export interface FakeTwilioAccount {
  accountSid: string;
  authToken: string;
  numbers?: string[];
  services?: string[];
}

/**
 * A local HTTP server speaking Twilio's Messages API (the part Lampstand uses): basic auth with the
 * account SID and token, form-encoded POST .../Accounts/{Sid}/Messages.json, 201 with a message SID;
 * a refused number answers 400 with Twilio's error shape. Churches' own accounts (`accounts`) too,
 * with the look-ups Settings → Texting makes: GET …/IncomingPhoneNumbers.json?PhoneNumber=… and
 * GET /v1/Services/{sid} (Twilio's Messaging API, on the same base here).
 */
export async function startFakeTwilio(opts: {
  accountSid: string;
  authToken: string;
  numbers?: string[];
  accounts?: FakeTwilioAccount[];
  refuse?: (to: string) => { code: number; message: string } | undefined;
  /** After this many accepted messages, hold every further request unanswered until resume(). */
  pauseAfter?: number;
}) {
  const requests: TwilioRequest[] = [];
  const accounts: FakeTwilioAccount[] = [
    { accountSid: opts.accountSid, authToken: opts.authToken, numbers: opts.numbers },
    ...(opts.accounts ?? []),
  ];
  let gate: Promise<void> | null = null;
  let openGate = () => {};
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on(
      'end',
      () =>
        void (async () => {
          while (gate) await gate;
          // A client that gave up (or was killed) meanwhile gets nothing: the message was not accepted.
          if (req.socket.destroyed) return;
          const json = (status: number, body: unknown) => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(body));
          };
          const notFound = () =>
            json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
          const url = new URL(req.url ?? '/', 'http://twilio.local');
          const authed = accounts.find(
            (a) =>
              req.headers.authorization === `Basic ${Buffer.from(`${a.accountSid}:${a.authToken}`).toString('base64')}`,
          );
          const service = /^\/v1\/Services\/([^/]+)$/.exec(url.pathname);
          if (req.method === 'GET' && service) {
            if (!authed) return json(401, { code: 20003, message: 'Authenticate', status: 401 });
            return authed.services?.includes(service[1]!) ? json(200, { sid: service[1] }) : notFound();
          }
          const path = /^\/2010-04-01\/Accounts\/([^/]+)\/(Messages|IncomingPhoneNumbers)\.json$/.exec(url.pathname);
          const account = accounts.find((a) => a.accountSid === path?.[1]);
          if (!path || !account) return notFound();
          if (authed !== account) return json(401, { code: 20003, message: 'Authenticate', status: 401 });
          if (req.method === 'GET' && path[2] === 'IncomingPhoneNumbers') {
            const wanted = url.searchParams.get('PhoneNumber');
            const numbers = (account.numbers ?? []).filter((n) => !wanted || n === wanted);
            return json(200, { incoming_phone_numbers: numbers.map((n) => ({ phone_number: n })) });
          }
          if (req.method !== 'POST' || path[2] !== 'Messages') return notFound();
          const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
          const refused = opts.refuse?.(form.To ?? '');
          if (refused) return json(400, { code: refused.code, message: refused.message, status: 400 });
          const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
          requests.push({
            To: form.To!,
            From: form.From!,
            ...(form.MessagingServiceSid ? { MessagingServiceSid: form.MessagingServiceSid } : {}),
            Body: form.Body!,
            StatusCallback: form.StatusCallback,
            sid,
            account: account.accountSid,
          });
          if (opts.pauseAfter && requests.length === opts.pauseAfter && !gate)
            gate = new Promise<void>((r) => (openGate = r));
          json(201, {
            sid,
            status: 'queued',
            to: form.To,
            from: form.From,
            body: form.Body,
            account_sid: account.accountSid,
          });
        })(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    resume() {
      if (gate) {
        gate = null;
        openGate();
      }
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
