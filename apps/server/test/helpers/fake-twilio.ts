import http from 'node:http';
import crypto from 'node:crypto';

export interface TwilioRequest {
  To: string;
  From: string;
  Body: string;
  StatusCallback?: string;
  sid: string;
}

/**
 * A local HTTP server speaking Twilio's Messages API (the part Lampstand uses): basic auth with the
 * account SID and token, form-encoded POST .../Accounts/{Sid}/Messages.json, 201 with a message SID;
 * a refused number answers 400 with Twilio's error shape.
 */
export async function startFakeTwilio(opts: {
  accountSid: string;
  authToken: string;
  refuse?: (to: string) => { code: number; message: string } | undefined;
  /** After this many accepted messages, hold every further request unanswered until resume(). */
  pauseAfter?: number;
}) {
  const requests: TwilioRequest[] = [];
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
          const expectedAuth = `Basic ${Buffer.from(`${opts.accountSid}:${opts.authToken}`).toString('base64')}`;
          const json = (status: number, body: unknown) => {
            res.writeHead(status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(body));
          };
          if (req.method !== 'POST' || req.url !== `/2010-04-01/Accounts/${opts.accountSid}/Messages.json`)
            return json(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
          if (req.headers.authorization !== expectedAuth)
            return json(401, { code: 20003, message: 'Authenticate', status: 401 });
          const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
          const refused = opts.refuse?.(form.To ?? '');
          if (refused) return json(400, { code: refused.code, message: refused.message, status: 400 });
          const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
          requests.push({ To: form.To!, From: form.From!, Body: form.Body!, StatusCallback: form.StatusCallback, sid });
          if (opts.pauseAfter && requests.length === opts.pauseAfter && !gate)
            gate = new Promise<void>((r) => (openGate = r));
          json(201, {
            sid,
            status: 'queued',
            to: form.To,
            from: form.From,
            body: form.Body,
            account_sid: opts.accountSid,
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
