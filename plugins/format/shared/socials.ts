/**
 * Social profile links: which network a URL belongs to, and whether it is a profile (a company's
 * or person's page) rather than a share button, a post or an embed. The brand and lead formats
 * both list a site's profiles by network from its links and JSON-LD `sameAs`.
 */

interface Network {
  name: string;
  hosts: readonly string[];
  /** The path is a profile (lower-cased, without trailing slash). */
  profile: RegExp;
}

// Profile paths per network; share dialogs (`/sharer.php`, `/intent/…`, `/shareArticle`), posts and embeds do not match.
const NETWORKS: readonly Network[] = [
  { name: 'linkedin', hosts: ['linkedin.com'], profile: /^\/(?:company|in|school|showcase)\/[^/]+$/ },
  { name: 'x', hosts: ['x.com', 'twitter.com'], profile: /^\/(?!intent$|share$|home$|search$|hashtag$|i$|login$)[a-z0-9_]{1,15}$/ },
  {
    name: 'facebook',
    hosts: ['facebook.com', 'fb.com'],
    profile: /^\/(?!sharer|share|dialog|plugins|tr$|login)(?:pages\/[^/]+\/\d+|people\/[^/]+\/\d+|profile\.php|[a-z0-9.-]{2,})$/,
  },
  { name: 'instagram', hosts: ['instagram.com'], profile: /^\/(?!p$|reel$|explore$|accounts$)[a-z0-9_.]{1,30}$/ },
  { name: 'youtube', hosts: ['youtube.com'], profile: /^\/(?:channel\/[^/]+|c\/[^/]+|user\/[^/]+|@[^/]+)$/ },
  { name: 'github', hosts: ['github.com'], profile: /^\/(?!sponsors$|features$|about$|login$)[a-z0-9-]{1,39}$/ },
  { name: 'tiktok', hosts: ['tiktok.com'], profile: /^\/@[^/]+$/ },
  { name: 'pinterest', hosts: ['pinterest.com'], profile: /^\/(?!pin$)[a-z0-9_]{3,30}$/ },
  { name: 'xing', hosts: ['xing.com'], profile: /^\/(?:pages|companies|profile)\/[^/]+$/ },
  { name: 'threads', hosts: ['threads.net', 'threads.com'], profile: /^\/@[^/]+$/ },
  { name: 'bluesky', hosts: ['bsky.app'], profile: /^\/profile\/[^/]+$/ },
];

const networkOfHost = (host: string): Network | undefined =>
  NETWORKS.find((n) => n.hosts.some((h) => host === h || host.endsWith(`.${h}`)));

/** The network and a clean profile URL (https, no query, fragment or trailing slash), or null. */
export function socialProfile(href: string): { network: string; url: string } | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const host = url.hostname.toLowerCase().replace(/^(?:www|m|mobile)\./, '');
  const network = networkOfHost(host);
  // profile.php names its profile in the query
  const path = url.pathname.replace(/\/+$/, '');
  if (!network?.profile.test(path.toLowerCase())) return null;
  const query = path === '/profile.php' && url.searchParams.get('id') ? `?id=${url.searchParams.get('id')}` : '';
  return { network: network.name, url: `https://${host}${path}${query}` };
}

/** The first profile per network, in the order given (callers list their best sources first). */
export function socialsByNetwork(hrefs: Iterable<string>): Record<string, string> {
  const found: Record<string, string> = {};
  for (const href of hrefs) {
    const profile = socialProfile(href);
    if (profile && !(profile.network in found)) found[profile.network] = profile.url;
  }
  return found;
}
