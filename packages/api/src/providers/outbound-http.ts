import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isForbiddenAddress, type OutboundReach } from './network-address.js';

export type { OutboundReach } from './network-address.js';

/**
 * The guarded outbound HTTP client: every server-side fetch of an address a church can set
 * (social webhooks, QR logo URLs, outgoing webhooks) goes through `outboundFetch`.
 *
 * - http(s) only, no user name or password in the URL;
 * - the host's literal address, or every address its name resolves to, must be public
 *   (`isForbiddenAddress`: every IPv4 and IPv6 spelling), and the socket connects to the address
 *   that was checked (a `lookup` that answers it, so there is no second lookup to rebind);
 * - redirects (at most `maxRedirects`) go through the same check;
 * - one deadline for the whole exchange, and a cap on the response body.
 *
 * Whatever goes wrong, the error's message is the generic `UNREACHABLE_MESSAGE` (what a church
 * is told: socket errors and refusals would make the server a port scanner); `detail` says
 * what happened, for the server log only.
 */

/** What a church is told when its address could not be fetched, whatever the reason. */
export const UNREACHABLE_MESSAGE = 'The address could not be reached';

export type OutboundFailure =
  'invalid-url' | 'forbidden-address' | 'dns' | 'connect' | 'timeout' | 'too-large' | 'redirects';

export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    /** For the server log, never for the church. */
    readonly detail: string,
  ) {
    super(UNREACHABLE_MESSAGE);
    this.name = 'OutboundError';
  }
}

export interface OutboundOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The one switch: 'public' (default); 'loopback' (QR_LOGO_ALLOW_LOOPBACK); 'private' (SOCIAL_WEBHOOK_ALLOW_PRIVATE). */
  reach?: OutboundReach;
  /** For the whole exchange, redirects included (default 10 s). */
  timeoutMs?: number;
  /** The response body at most (default 1 MB); more is an error. */
  maxBytes?: number;
  /** Redirects followed at most (default 3); 0 answers the 3xx itself. */
  maxRedirects?: number;
  /**
   * Keep-alive agents for many requests to the same receivers (outgoing webhooks); default none, a
   * connection per request. A kept socket was connected to an address checked when it was opened.
   */
  agents?: { http: http.Agent; https: https.Agent };
}

export interface OutboundResponse {
  status: number;
  statusMessage: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 1024 * 1024;
const DEFAULT_MAX_REDIRECTS = 3;

interface Pinned {
  address: string;
  family: number;
}

/** The address to connect to: the literal, or the first answer of a lookup every answer of which is allowed. */
async function checkedAddress(host: string, reach: OutboundReach): Promise<Pinned> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) {
    if (isForbiddenAddress(bare, reach)) throw new OutboundError('forbidden-address', `${bare} is not public`);
    return { address: bare, family: net.isIP(bare) };
  }
  let answers: Pinned[];
  try {
    answers = await dns.lookup(bare, { all: true, verbatim: true });
  } catch (err) {
    throw new OutboundError('dns', `${bare}: ${(err as Error).message}`);
  }
  if (answers.length === 0) throw new OutboundError('dns', `${bare}: no address`);
  // A name that also resolves inside the network is refused, whichever answer a socket would use.
  const bad = answers.find((a) => isForbiddenAddress(a.address, reach));
  if (bad) throw new OutboundError('forbidden-address', `${bare} resolves to ${bad.address}, which is not public`);
  return answers[0]!;
}

function requestOnce(
  url: URL,
  pinned: Pinned,
  o: {
    method: string;
    headers: Record<string, string>;
    body?: string | Buffer;
    maxBytes: number;
    agents?: OutboundOptions['agents'];
  },
  deadline: number,
): Promise<OutboundResponse> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === 'https:' ? https : http;
    const lookup: net.LookupFunction = (_host, opts, cb) => {
      // Connect to the address we checked, never to a second lookup's answer (DNS rebinding).
      if ((opts as { all?: boolean }).all)
        (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
      else cb(null, pinned.address, pinned.family);
    };
    const headers: Record<string, string | number> = { ...o.headers };
    if (o.body !== undefined) headers['content-length'] = Buffer.byteLength(o.body);
    const agent = (url.protocol === 'https:' ? o.agents?.https : o.agents?.http) ?? false;
    const req = lib.request(url, { method: o.method, headers, lookup, agent }, (res) => {
      const declared = Number(res.headers['content-length'] ?? 0);
      if (declared > o.maxBytes) {
        reject(new OutboundError('too-large', `${declared} bytes declared, at most ${o.maxBytes}`));
        return res.destroy();
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > o.maxBytes) {
          reject(new OutboundError('too-large', `more than ${o.maxBytes} bytes`));
          res.destroy();
          return;
        }
        chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
          url: url.toString(),
        }),
      );
      res.on('error', (err) => reject(new OutboundError('connect', err.message)));
      res.on('aborted', () => reject(new OutboundError('connect', 'response aborted')));
    });
    const timer = setTimeout(
      () => {
        reject(new OutboundError('timeout', 'no answer within the deadline'));
        req.destroy();
      },
      Math.max(0, deadline - Date.now()),
    );
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err) => reject(new OutboundError('connect', err.message)));
    req.end(o.body);
  });
}

/** Fetch an address a church set, through the guard (see the top of this file). Any status is answered; failures throw `OutboundError`. */
export async function outboundFetch(rawUrl: string, opts: OutboundOptions = {}): Promise<OutboundResponse> {
  const reach = opts.reach ?? 'public';
  const deadline = Date.now() + (opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let method: string = opts.method ?? 'GET';
  let body = opts.body;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new OutboundError('invalid-url', 'not a URL');
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundError('invalid-url', `scheme ${url.protocol} is not http(s)`);
    if (url.username || url.password) throw new OutboundError('invalid-url', 'credentials in the URL');
    const pinned = await checkedAddress(url.hostname, reach);
    if (Date.now() >= deadline) throw new OutboundError('timeout', 'no answer within the deadline');
    const headers = { ...opts.headers };
    if (body === undefined) delete headers['content-type'];
    const res = await requestOnce(url, pinned, { method, headers, body, maxBytes, agents: opts.agents }, deadline);
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(res.status) || !location || maxRedirects === 0) return res;
    if (hop >= maxRedirects) throw new OutboundError('redirects', `more than ${maxRedirects} redirects`);
    try {
      url = new URL(location, url);
    } catch {
      throw new OutboundError('invalid-url', 'redirect to an invalid URL');
    }
    // As browsers do: 307 and 308 repeat the request, the others continue with a GET.
    if (res.status !== 307 && res.status !== 308 && method !== 'GET') {
      method = 'GET';
      body = undefined;
    }
  }
}
