// Table tests of the SSRF guard: which addresses and names outbound fetches may contact.
import { describe, expect, test } from 'bun:test';
import { forbiddenAddressReason, forbiddenHostnameReason, isIpLiteral } from './ssrf.ts';

const forbidden: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.255.0.9', /loopback/],
  ['10.0.0.1', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.254', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /link-local/],
  ['169.254.0.1', /link-local/],
  ['100.64.0.1', /carrier-grade NAT/],
  ['100.100.100.200', /carrier-grade NAT/], // Alibaba Cloud metadata
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['255.255.255.255', /broadcast/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['192.0.2.10', /reserved/],
  ['198.18.0.1', /reserved/],
  // Forms URL parsers accept for 127.0.0.1.
  ['2130706433', /loopback/],
  ['0x7f.0.0.1', /loopback/],
  ['127.1', /loopback/],
  ['::1', /loopback/],
  ['[::1]', /loopback/],
  ['::', /unspecified/],
  ['fc00::1', /unique-local/],
  ['fd00:ec2::254', /unique-local/], // AWS IPv6 metadata
  ['fe80::1', /link-local/],
  ['fe80::1%eth0', /link-local/],
  ['fec0::1', /site-local/],
  ['ff02::1', /multicast/],
  ['2001:db8::1', /reserved/],
  ['::ffff:127.0.0.1', /loopback.*embedded/],
  ['::ffff:7f00:1', /loopback.*embedded/],
  ['::ffff:169.254.169.254', /link-local.*embedded/],
  ['::ffff:10.1.2.3', /private.*embedded/],
  ['::ffff:0:a00:1', /private.*embedded/], // RFC 6145 translated
  ['64:ff9b::7f00:1', /loopback.*embedded/], // NAT64 of 127.0.0.1
  ['64:ff9b:1::1', /local-use NAT64/],
  ['2002:7f00:1::', /loopback.*6to4/], // 6to4 around 127.0.0.1
  ['2002:a9fe:a9fe::1', /link-local.*6to4/], // 6to4 around 169.254.169.254
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', /loopback.*teredo/], // client 127.0.0.1 (inverted bits)
  ['::7f00:1', /IPv4-compatible/],
  ['not-an-ip', /not an IP/],
  ['', /not an IP/],
];

const allowed = [
  '1.1.1.1',
  '8.8.8.8',
  '93.184.215.14',
  '172.32.0.1', // just outside 172.16/12
  '100.128.0.1', // just outside 100.64/10
  '169.253.255.255',
  '2606:4700:4700::1111',
  '2a00:1450:4001:82b::200e',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808', // NAT64 of 8.8.8.8
  '2002:808:808::1', // 6to4 around 8.8.8.8
];

describe('forbiddenAddressReason', () => {
  test.each(forbidden)('refuses %s', (ip, reason) => {
    expect(forbiddenAddressReason(ip)).toMatch(reason);
  });

  test.each(allowed)('allows %s', (ip) => {
    expect(forbiddenAddressReason(ip)).toBeNull();
  });
});

describe('forbiddenHostnameReason', () => {
  test.each(['metadata.google.internal', 'METADATA.google.internal.', 'metadata.goog', 'instance-data.ec2.internal', 'metadata'])(
    'refuses metadata name %s',
    (host) => expect(forbiddenHostnameReason(host)).toMatch(/metadata/),
  );

  test.each(['localhost', 'api.localhost'])('refuses %s', (host) => {
    expect(forbiddenHostnameReason(host)).toMatch(/loopback/);
  });

  test.each(['example.com', 'metadata.example.com', 'localhost.example.com'])('allows %s', (host) => {
    expect(forbiddenHostnameReason(host)).toBeNull();
  });
});

test('isIpLiteral tells literals from names', () => {
  expect(isIpLiteral('127.0.0.1')).toBe(true);
  expect(isIpLiteral('[::1]')).toBe(true);
  expect(isIpLiteral('::ffff:127.0.0.1')).toBe(true);
  expect(isIpLiteral('example.com')).toBe(false);
  expect(isIpLiteral('a.site.test')).toBe(false);
});
