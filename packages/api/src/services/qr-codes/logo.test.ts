import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchLogo, sanitizeSvgLogo } from './logo.js';

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const server = http.createServer((req, res) => {
  if (req.url === '/ok.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_1PX);
  if (req.url === '/big.png')
    return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG_1PX, Buffer.alloc(5000)]));
  if (req.url === '/slow.png') return; // never answers
  if (req.url === '/to-private') return res.writeHead(302, { location: 'http://10.1.2.3/x.png' }).end();
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

describe('logo guard', () => {
  it('fetches an image from an allowed address', async () => {
    const logo = await fetchLogo(`${base}/ok.png`, { allowLoopback: true });
    expect(logo.contentType).toBe('image/png');
    expect(logo.data.equals(PNG_1PX)).toBe(true);
  });

  it('refuses loopback unless allowed, oversize bodies, slow servers, redirects to private addresses, other schemes', async () => {
    // A literal private host is named as such; what a lookup or a redirect finds is only "could not be reached".
    await expect(fetchLogo(`${base}/ok.png`)).rejects.toThrow('The logo URL points to a private network address');
    await expect(fetchLogo(`http://[::ffff:7f00:1]:${new URL(base).port}/ok.png`)).rejects.toThrow(
      'The logo URL points to a private network address',
    );
    await expect(fetchLogo(`${base}/big.png`, { allowLoopback: true, maxBytes: 1000 })).rejects.toThrow(
      'The logo is larger than 2 MB',
    );
    await expect(fetchLogo(`${base}/slow.png`, { allowLoopback: true, timeoutMs: 200 })).rejects.toThrow(
      'The address could not be reached',
    );
    await expect(fetchLogo(`${base}/to-private`, { allowLoopback: true })).rejects.toThrow(
      'The address could not be reached',
    );
    await expect(fetchLogo('file:///etc/passwd')).rejects.toThrow('The logo URL must start with http:// or https://');
    await expect(fetchLogo('http://user:pw@example.org/x.png')).rejects.toThrow('user name or password');
  });

  it('sanitizes SVG logos down to drawing', () => {
    const out = sanitizeSvgLogo(
      '<svg viewBox="0 0 10 10" onload="x()"><script>x()</script><style>@import url(http://evil/x.css); .a{fill:url(http://evil/p)} .b{fill:url(#g)}</style>' +
        '<linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient>' +
        '<use xlink:href="http://evil/#a"/><use href="#g"/><a href="javascript:x()"><rect width="1" height="1" class="a"/></a>' +
        '<foreignObject><iframe src="http://evil"/></foreignObject><path d="M0 0h10v10z" fill="#123456"/></svg>',
    ).toString();
    expect(out).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(out).toContain('viewBox="0 0 10 10"');
    expect(out).toContain('<linearGradient id="g">');
    expect(out).toContain('<use href="#g"');
    expect(out).toContain('fill:url(#g)');
    expect(out).toContain('<path d="M0 0h10v10z" fill="#123456"');
    expect(out).not.toMatch(/onload|script|@import|evil|javascript|foreignObject|iframe/);
    expect(() => sanitizeSvgLogo('<html><body>no</body></html>')).toThrow('The logo SVG could not be read');
  });
});
