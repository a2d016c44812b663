import { describe, expect, it } from 'vitest';
import { addressKind, hasForbiddenLiteralHost, isForbiddenAddress, parseIPv6 } from './network-address.js';

describe('the forbidden-address rule', () => {
  it.each([
    // IPv4
    ['0.0.0.0', '0/8'],
    ['0.1.2.3', '0/8'],
    ['10.0.0.1', '10/8'],
    ['100.64.0.1', '100.64/10'],
    ['100.127.255.254', '100.64/10'],
    ['127.0.0.1', '127/8'],
    ['127.255.0.9', '127/8'],
    ['169.254.169.254', 'link-local, cloud metadata'],
    ['172.16.0.1', '172.16/12'],
    ['172.31.255.255', '172.16/12'],
    ['192.0.0.8', '192.0.0/24'],
    ['192.168.1.1', '192.168/16'],
    ['198.18.0.1', '198.18/15'],
    ['198.19.255.1', '198.18/15'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', '240/4'],
    ['255.255.255.255', 'broadcast'],
    // IPv6
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback, long form'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped, dotted'],
    ['::ffff:7f00:1', 'IPv4-mapped, hex (how the URL parser writes it)'],
    ['0:0:0:0:0:ffff:7f00:0001', 'IPv4-mapped, long hex'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata, hex'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::7f00:1', 'IPv4-compatible, hex'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated'],
    ['64:ff9b::7f00:1', 'NAT64 /96 of loopback'],
    ['64:ff9b::808:808', 'NAT64 /96 of a public address (still refused: it reaches IPv4 through a gateway)'],
    ['64:ff9b:1::a00:1', 'NAT64 local-use /48'],
    ['2002:7f00:1::', '6to4 of 127.0.0.1'],
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254'],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local, top of fe80::/10'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'documentation'],
    ['[::ffff:127.0.0.1]', 'bracketed'],
    ['fe80::1%eth0', 'with a zone'],
    ['not-an-ip', 'not an address'],
    ['1.2.3', 'not a dotted quad'],
  ])('refuses %s (%s)', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '2002:808:808::1',
  ])('allows the public address %s', (ip) => {
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it('lets loopback (every spelling) through with reach loopback, and nothing else private', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1'])
      expect(isForbiddenAddress(ip, 'loopback'), ip).toBe(false);
    for (const ip of ['10.0.0.1', '::ffff:10.0.0.1', '169.254.169.254', 'fd00::1', '::'])
      expect(isForbiddenAddress(ip, 'loopback'), ip).toBe(true);
    expect(isForbiddenAddress('10.0.0.1', 'private')).toBe(false);
    expect(isForbiddenAddress('not-an-ip', 'private')).toBe(true);
  });

  it('reads IPv6 spellings as the same address', () => {
    expect(parseIPv6('::ffff:127.0.0.1')).toEqual(parseIPv6('::ffff:7f00:1'));
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1:2:3:4:5:6:1.2.3.4')).toEqual([1, 2, 3, 4, 5, 6, 0x102, 0x304]);
    expect(parseIPv6('1::2::3')).toBeNull();
    expect(parseIPv6('1:2:3:4:5:6:7:8:9')).toBeNull();
    expect(parseIPv6('12345::')).toBeNull();
    expect(addressKind('::ffff:8.8.8.8')).toBe('public');
  });

  it.each([
    'http://127.0.0.1/x',
    'http://[::ffff:127.0.0.1]:8080/x',
    'http://[::ffff:7f00:1]/x',
    'http://[::ffff:169.254.169.254]/latest',
    'http://[::127.0.0.1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[2002:a9fe:a9fe::]/',
    'http://[2001::1]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://[::1]/',
    'http://[::]/',
    'http://[ff02::1]/',
    // Integer, octal and hex hosts: the URL parser normalises them to dotted quads.
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://0x7f.1/',
    'http://127.1/',
    'http://0/',
    'http://0xa9fea9fe/',
    'http://4294967295/',
    'http://localhost:3000/',
    'http://LOCALHOST./',
    'http://api.localhost/',
  ])('refuses the literal host of %s', (url) => {
    expect(hasForbiddenLiteralHost(url)).toBe(true);
  });

  it('leaves names to the lookup, and honours the reach', () => {
    expect(hasForbiddenLiteralHost('https://hooks.example.org/x')).toBe(false);
    expect(hasForbiddenLiteralHost('https://8.8.8.8/x')).toBe(false);
    expect(hasForbiddenLiteralHost('http://127.0.0.1:9/x', 'loopback')).toBe(false);
    expect(hasForbiddenLiteralHost('http://localhost:9/x', 'loopback')).toBe(false);
    expect(hasForbiddenLiteralHost('http://10.0.0.1/x', 'loopback')).toBe(true);
    expect(hasForbiddenLiteralHost('http://10.0.0.1/x', 'private')).toBe(false);
  });
});
