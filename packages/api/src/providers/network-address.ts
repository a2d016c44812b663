// The forbidden-address rule of every server-side fetch of an address a church can set (social
// webhooks, QR logos, outgoing webhooks): pure functions, no imports, so the save-time checks
// share it with the guarded outbound client (outbound-http.ts).

/** How far an outbound fetch may reach: the public internet only (the default), loopback too (tests), or anywhere. */
export type OutboundReach = 'public' | 'loopback' | 'private';

/** What an IP address is, for the rule: a public address, loopback, anything else not public, or not an IP. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'invalid';

/** Strict dotted-quad IPv4 (what WHATWG URLs and DNS answers give: integer, octal and hex hosts are normalised before). */
export function parseIPv4(s: string): number | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const v = Number(p);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

/** An IPv6 address as 8 groups of 16 bits (brackets, a zone id and an embedded dotted IPv4 tail allowed); null if not one. */
export function parseIPv6(input: string): number[] | null {
  let s = input.trim().toLowerCase();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // An embedded dotted IPv4 tail ('::ffff:1.2.3.4') is two groups.
    const v4 = parseIPv4(last);
    if (v4 === null) return null;
    s = `${s.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const group = (g: string) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN);
  const head = halves[0] ? halves[0].split(':').map(group) : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':').map(group) : [];
  if ([...head, ...rest].some((g) => Number.isNaN(g))) return null;
  const given = head.length + rest.length;
  if (halves.length === 2) {
    if (given > 7) return null;
    return [...head, ...new Array<number>(8 - given).fill(0), ...rest];
  }
  if (given !== 8) return null;
  return head;
}

const V4_RANGES: [string, number, AddressKind][] = [
  ['0.0.0.0', 8, 'private'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'private'], // link-local, cloud metadata
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'private'], // IETF protocol assignments
  ['192.0.2.0', 24, 'private'], // documentation
  ['192.88.99.0', 24, 'private'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'private'], // benchmarking
  ['198.51.100.0', 24, 'private'], // documentation
  ['203.0.113.0', 24, 'private'], // documentation
  ['224.0.0.0', 4, 'private'], // multicast
  ['240.0.0.0', 4, 'private'], // reserved, and 255.255.255.255 broadcast
];
const V4_TABLE = V4_RANGES.map(([base, bits, kind]) => ({
  base: parseIPv4(base)!,
  size: 2 ** (32 - bits),
  kind,
}));

function ipv4Kind(n: number): AddressKind {
  for (const r of V4_TABLE) if (n >= r.base && n < r.base + r.size) return r.kind;
  return 'public';
}

const v4Of = (hi: number, lo: number) => hi * 65536 + lo;

function ipv6Kind(g: number[]): AddressKind {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return 'private'; // :: unspecified
  if (zeros(0, 7) && g[7] === 1) return 'loopback'; // ::1
  // IPv4-mapped ::ffff:a.b.c.d (also written ::ffff:7f00:1), IPv4-compatible ::a.b.c.d and
  // IPv4-translated ::ffff:0:a.b.c.d are the IPv4 address they carry.
  if (zeros(0, 5) && g[5] === 0xffff) return ipv4Kind(v4Of(g[6]!, g[7]!));
  if (zeros(0, 6)) return ipv4Kind(v4Of(g[6]!, g[7]!));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Kind(v4Of(g[6]!, g[7]!));
  // Only global unicast 2000::/3 is public: this refuses ::/8 (the rest of it), 64:ff9b::/96 and
  // 64:ff9b:1::/48 (NAT64, which reaches any IPv4 address), 100::/64 (discard), fc00::/7 (unique
  // local), fe80::/10 (link-local), fec0::/10 (site-local) and ff00::/8 (multicast).
  if ((g[0]! & 0xe000) !== 0x2000) return 'private';
  // 2001::/23: IETF protocol assignments, Teredo 2001::/32 among them (an IPv4 address inside).
  if (g[0] === 0x2001 && g[1]! < 0x200) return 'private';
  if (g[0] === 0x2001 && g[1] === 0xdb8) return 'private'; // documentation
  // 6to4 2002::/16 carries an IPv4 address in its next 32 bits: that address decides.
  if (g[0] === 0x2002) return ipv4Kind(v4Of(g[1]!, g[2]!)) === 'public' ? 'public' : 'private';
  return 'public';
}

/** What an IP address is (in any spelling of IPv4 or IPv6); 'invalid' when it is not an IP address. */
export function addressKind(ip: string): AddressKind {
  const v4 = parseIPv4(ip);
  if (v4 !== null) return ipv4Kind(v4);
  const v6 = parseIPv6(ip);
  return v6 ? ipv6Kind(v6) : 'invalid';
}

/** True when a fetch with this reach may not connect to this IP address (or it is not an IP address). */
export function isForbiddenAddress(ip: string, reach: OutboundReach = 'public'): boolean {
  const kind = addressKind(ip);
  if (kind === 'invalid') return true;
  if (kind === 'public' || reach === 'private') return false;
  return !(kind === 'loopback' && reach === 'loopback');
}

/**
 * True when the host of this URL is itself a forbidden address (an IP literal in any spelling, or
 * `localhost`): what a form or a save can refuse without looking anything up. A name is checked
 * again, with every address it resolves to, when it is fetched.
 */
export function hasForbiddenLiteralHost(url: string, reach: OutboundReach = 'public'): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (reach !== 'public' && reach !== 'loopback') return false;
  const bare = host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return reach !== 'loopback';
  return addressKind(bare) !== 'invalid' && isForbiddenAddress(bare, reach);
}
