// The address rules of the browser's guard proxy on their own (no browser): refusals by name and
// by literal, and the socket lookup with host overrides.
import { describe, expect, test } from 'bun:test';
import type { LookupAddress } from 'node:dns';
import { testConfig } from '../../test/helpers/plugin-context.ts';
import { forbiddenAddressReason } from '../net/ssrf.ts';
import { createAddressGuard } from '../net/address-guard.ts';

const fetch = {
  ...testConfig().fetch,
  allowPrivateNetwork: false,
  resolve: { 'intranet.test': '10.1.2.3', 'shop.test:8080': '127.0.0.1', 'public.test': '93.184.215.14' },
};
const guard = createAddressGuard(fetch, forbiddenAddressReason);

function lookup(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    guard.lookupFor(port)(host, { all: true }, (err, addresses) => {
      resolve(err ? `refused: ${err.message}` : (addresses as unknown as LookupAddress[]).map((a) => a.address).join(','));
    });
  });
}

describe('before any lookup', () => {
  test.each([
    ['127.0.0.1', 'address 127.0.0.1 is not allowed (loopback address)'],
    ['[::ffff:10.0.0.1]', 'address ::ffff:10.0.0.1 is not allowed (private network embedded in IPv6 (ipv4Mapped))'],
    ['169.254.169.254', 'address 169.254.169.254 is not allowed (link-local address (cloud metadata lives here))'],
    ['metadata.google.internal', 'address metadata.google.internal is not allowed (cloud metadata host)'],
    ['LOCALHOST', 'address localhost is not allowed (loopback host name)'],
  ])('%s is refused', (host, reason) => {
    expect(guard.hostRefusal(host)?.message).toBe(reason);
  });

  test('public literals and names that still need a lookup pass', () => {
    expect(guard.hostRefusal('93.184.215.14')).toBeNull();
    expect(guard.hostRefusal('intranet.test')).toBeNull();
  });
});

describe('the socket lookup', () => {
  test('applies overrides (per host, and per host:port) and refuses forbidden answers', async () => {
    expect(await lookup('intranet.test', 80)).toBe('refused: address 10.1.2.3 is not allowed (private network)');
    expect(await lookup('shop.test', 8080)).toBe('refused: address 127.0.0.1 is not allowed (loopback address)');
    expect(await lookup('public.test', 443)).toBe('93.184.215.14');
  });
});
