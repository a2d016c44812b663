import http from 'node:http';
import crypto from 'node:crypto';

interface StoredObject {
  body: Buffer;
  contentType: string;
  cacheControl?: string;
}

const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data).digest();
const sha256 = (data: crypto.BinaryLike) => crypto.createHash('sha256').update(data).digest('hex');

/** Verifies an AWS Signature Version 4 `Authorization` header as S3 does. */
function validSignature(req: http.IncomingMessage, accessKeyId: string, secret: string): boolean {
  const auth = req.headers.authorization ?? '';
  const m =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  if (!m || m[1] !== accessKeyId) return false;
  const [, , date, region, signedHeaders, signature] = m as unknown as [string, string, string, string, string, string];
  const url = new URL(req.url ?? '/', 'http://x');
  const query = [...url.searchParams]
    .map(([k, v]) => [encodeURIComponent(k), encodeURIComponent(v)])
    .sort(([a], [b]) => (a! < b! ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const headerLines = signedHeaders
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
  const canonical = [req.method, url.pathname, query, headerLines, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', String(req.headers['x-amz-date']), scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), 's3'), 'aws4_request');
  return hmac(key, toSign).toString('hex') === signature;
}

/** The body of an `aws-chunked` upload: `<hex size>;chunk-signature=…\r\n<data>\r\n` … `0…\r\n` trailers. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const out: Buffer[] = [];
  let pos = 0;
  while (pos < raw.length) {
    const eol = raw.indexOf('\r\n', pos);
    if (eol < 0) break;
    const size = parseInt(raw.subarray(pos, eol).toString().split(';')[0]!, 16);
    if (!size) break;
    out.push(raw.subarray(eol + 2, eol + 2 + size));
    pos = eol + 2 + size + 2;
  }
  return Buffer.concat(out);
}

const xmlError = (res: http.ServerResponse, status: number, code: string, message: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

/**
 * A local HTTP server speaking the S3 API subset Lampstand uses, path-style
 * (`/{bucket}/{key}`): PutObject, GetObject, DeleteObject, with SigV4 signatures checked.
 */
export async function startFakeS3(opts: { bucket: string; accessKeyId: string; secretAccessKey: string }) {
  const objects = new Map<string, StoredObject>();
  const log: { method: string; key: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (!validSignature(req, opts.accessKeyId, opts.secretAccessKey))
        return xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match');
      const url = new URL(req.url ?? '/', 'http://x');
      const [, bucket, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      if (bucket !== opts.bucket) return xmlError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      log.push({ method: req.method ?? '', key });
      let body: Buffer = Buffer.concat(chunks);
      if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked')) body = decodeAwsChunked(body);
      if (req.method === 'PUT') {
        objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
          cacheControl: req.headers['cache-control'],
        });
        res.writeHead(200, { etag: `"${crypto.createHash('md5').update(body).digest('hex')}"` });
        return res.end();
      }
      if (req.method === 'GET') {
        const o = objects.get(key);
        if (!o) return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, { 'content-type': o.contentType, 'content-length': o.body.length });
        return res.end(o.body);
      }
      if (req.method === 'DELETE') {
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      return xmlError(res, 405, 'MethodNotAllowed', 'The specified method is not allowed');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
