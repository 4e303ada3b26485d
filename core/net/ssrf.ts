/**
 * SSRF guard: decides whether an outbound request may contact an IP address or host name. The HTTP
 * client calls it on the addresses a name resolves to, at connect time and on every redirect hop,
 * so a name that flips to an internal address between checks (DNS rebinding) is still refused.
 */
import ipaddr from 'ipaddr.js';

/** Names of cloud metadata services; most resolve to link-local addresses, but not all, and some
 * resolvers answer them specially, so they are refused by name before any lookup. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

/** ipaddr.js range names that are reachable public unicast space. Everything else is refused. */
const PUBLIC_V4 = new Set(['unicast']);
const PUBLIC_V6 = new Set(['unicast']);

const V4_LABELS: Record<string, string> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  linkLocal: 'link-local address (cloud metadata lives here)',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address',
  private: 'private network',
  reserved: 'reserved address',
};

const V6_LABELS: Record<string, string> = {
  unspecified: 'unspecified address',
  linkLocal: 'link-local address',
  multicast: 'multicast address',
  loopback: 'loopback address',
  uniqueLocal: 'unique-local address (private network)',
  deprecatedSiteLocal: 'site-local address (private network)',
  reserved: 'reserved address',
};

function v4Reason(ip: ipaddr.IPv4): string | null {
  const range = ip.range();
  if (PUBLIC_V4.has(range)) return null;
  return V4_LABELS[range] ?? `special-purpose address (${range})`;
}

/** IPv4 address carried in bytes [from, from+4) of an IPv6 address. */
function embeddedV4(ip: ipaddr.IPv6, from: number, xor = 0): ipaddr.IPv4 {
  const bytes = ip
    .toByteArray()
    .slice(from, from + 4)
    .map((b) => b ^ xor);
  return new ipaddr.IPv4(bytes);
}

function v6Reason(ip: ipaddr.IPv6): string | null {
  const range = ip.range();
  // Transition mechanisms tunnel to an IPv4 address: the embedded one is what really gets reached.
  const tunnelled: Record<string, () => ipaddr.IPv4> = {
    ipv4Mapped: () => ip.toIPv4Address(),
    rfc6145: () => embeddedV4(ip, 12),
    rfc6052: () => embeddedV4(ip, 12),
    '6to4': () => embeddedV4(ip, 2),
    // Teredo stores the client address inverted in the last four bytes.
    teredo: () => embeddedV4(ip, 12, 0xff),
  };
  const embed = tunnelled[range];
  if (embed) {
    // The NAT64 local-use prefix 64:ff9b:1::/48 is operator-local, never public.
    if (range === 'rfc6052' && ip.parts[2] !== 0) return 'local-use NAT64 address';
    const inner = v4Reason(embed());
    return inner === null ? null : `${inner} embedded in IPv6 (${range})`;
  }
  // ipaddr.js calls the deprecated IPv4-compatible block ::/96 "unicast"; nothing public lives there.
  if (range === 'unicast' && ip.parts.slice(0, 6).every((p) => p === 0)) return 'IPv4-compatible IPv6 address';
  if (PUBLIC_V6.has(range)) return null;
  return V6_LABELS[range] ?? `special-purpose address (${range})`;
}

/** Strips the brackets of a URL host and an IPv6 zone id (`fe80::1%eth0`). */
function bareAddress(ip: string): string {
  const unbracketed = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  const zone = unbracketed.indexOf('%');
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** True when the text is an IP address literal (v4 in any form URL parsers accept, or v6). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(bareAddress(host));
}

/**
 * Why an IP address must not be contacted, or null when it is public unicast space. Anything that
 * does not parse as an address is refused too: the caller should have resolved names already.
 */
export function forbiddenAddressReason(ip: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bareAddress(ip));
  } catch {
    return 'not an IP address';
  }
  return parsed.kind() === 'ipv4' ? v4Reason(parsed as ipaddr.IPv4) : v6Reason(parsed as ipaddr.IPv6);
}

/** Why a host name must not be contacted regardless of what it resolves to, or null. */
export function forbiddenHostnameReason(hostname: string): string | null {
  const host = bareAddress(hostname).toLowerCase().replace(/\.+$/, '');
  if (METADATA_HOSTS.has(host)) return 'cloud metadata host';
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback host name';
  return null;
}
