import type { Socket } from 'node:net';
import http from 'node:http';

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
}

export type ChatReply =
  | { kind: 'json'; content: string; promptTokens?: number; completionTokens?: number }
  | { kind: 'error'; status: number; message: string }
  | { kind: 'hang' };

/**
 * A local HTTP server speaking OpenAI's chat completions API (POST /v1/chat/completions with a
 * Bearer key), answering from a queue of replies: JSON content, an error status, or no answer.
 */
export async function startFakeOpenAi(opts: { apiKey: string }) {
  const requests: ChatRequest[] = [];
  const replies: ChatReply[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${opts.apiKey}`)
        return json(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return json(404, { error: { message: 'Not found', type: 'invalid_request_error' } });
      const body = JSON.parse(Buffer.concat(chunks).toString()) as ChatRequest;
      requests.push(body);
      const reply = replies.shift() ?? { kind: 'error', status: 500, message: 'No reply queued' };
      if (reply.kind === 'hang') return; // never answers: the client's timeout decides
      if (reply.kind === 'error')
        return json(reply.status, { error: { message: reply.message, type: 'server_error' } });
      json(200, {
        id: `chatcmpl-${requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: reply.content, refusal: null },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: reply.promptTokens ?? 100,
          completion_tokens: reply.completionTokens ?? 50,
          total_tokens: (reply.promptTokens ?? 100) + (reply.completionTokens ?? 50),
        },
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...r: ChatReply[]) => replies.push(...r),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
