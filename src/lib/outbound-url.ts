/**
 * The one guard for every URL this service connects to on a client's word: webhook deliveries
 * and MCP `file_url` / `image_url` fetches. Checked when the request arrives (422) and again right
 * before each connection; redirects are never followed blindly (webhooks do not follow them,
 * file_url follows at most 3, each target checked again), so the URL checked is the URL connected to.
 *
 * What it covers: the scheme (https only), userinfo, and hosts that name this machine, a private
 * network, link-local or cloud-metadata addresses, CGNAT, unspecified, broadcast, multicast,
 * benchmarking, documentation and reserved ranges, in every spelling the URL parser accepts: the
 * WHATWG parser already turns decimal (2130706433), octal (0177.1), hex (0x7f.1) and short (127.1)
 * IPv4 forms into dotted quads and drops one trailing dot from them, and IPv6 into its compressed
 * form, so the ranges are checked on what `new URL` gives. Trailing dots in any count and empty
 * labels ("localhost..", "127.0.0.1..", "a..b.example") are refused, after the name without them
 * is checked so that the refusal says what it named. IPv4 addresses inside IPv6 (mapped
 * ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::, 6to4 2002::) are checked as the IPv4
 * address they carry. Names: localhost and *.localhost, *.local (mDNS), *.localdomain,
 * *.internal (metadata.google.internal), *.arpa (home.arpa, in-addr.arpa), *.lan and other
 * private-use top-level names, single-label names (no public name has no dot), and names that
 * carry a non-public IPv4 address for wildcard DNS (127.0.0.1.nip.io, 10-0-0-1.sslip.io).
 *
 * What it cannot cover: a Worker cannot resolve a hostname itself, so a name that resolves to a
 * private address (a hosts entry, a DNS record, DNS rebinding) passes here and is left to the
 * network the platform's fetch runs on (README, "Webhooks": Cloudflare's edge, or a self-hosted
 * workerd's `internet` service with `allow = ["public"]`, which filters resolved addresses).
 */

export interface UrlPolicy {
  /** ALLOW_INSECURE_URLS (development only): http:// and any host, for receivers on this machine. */
  allowInsecure: boolean;
}

/** Why the URL may not be used, in words for the client; null when it may. */
export function outboundUrlProblem(raw: string, policy: UrlPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a valid URL';
  }
  if (policy.allowInsecure) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an https:// address';
  if (url.protocol !== 'https:') return 'must be an https:// address';
  if (url.username || url.password) return 'must not carry a user name or password';
  const hostname = url.hostname.toLowerCase();
  if (hostname.startsWith('[')) return ipv6Problem(hostname.slice(1, -1));
  // The parser drops one trailing dot from an IPv4 address but keeps dots on names ("localhost..",
  // "127.0.0.1..", which resolvers still read as localhost and 127.0.0.1): the host without them
  // is checked, reparsed so that "0x7f.1.." is 127.0.0.1 again, and any trailing dot is refused.
  const bare = hostname.replace(/\.+$/, '');
  if (!bare || bare.split('.').some((label) => label === '')) return `${NOT_PUBLIC} (the name "${hostname}" has an empty label)`;
  let host = bare;
  if (bare !== hostname) {
    try {
      host = new URL(`https://${bare}/`).hostname;
    } catch {
      return 'is not a valid URL';
    }
  }
  const problem = /^\d+\.\d+\.\d+\.\d+$/.test(host) ? ipv4Problem(host) : nameProblem(host);
  if (problem) return problem;
  return bare !== hostname ? `${NOT_PUBLIC} by its name without a trailing dot ("${bare}", not "${hostname}")` : null;
}

const NOT_PUBLIC = 'must name a public Internet host';

/** Top-level names of local, internal or special-use networks (RFC 6761, 6762, 8375, and common private ones). */
const LOCAL_TLDS = ['local', 'localdomain', 'internal', 'lan', 'intranet', 'corp', 'home', 'private', 'arpa', 'invalid', 'onion'];

function nameProblem(host: string): string | null {
  if (host === 'localhost') return `${NOT_PUBLIC} (localhost is this machine)`;
  if (!host.includes('.')) return `${NOT_PUBLIC} (a single-label name such as "${host}" is local)`;
  const labels = host.split('.');
  const tld = labels[labels.length - 1]!;
  if (tld === 'localhost') return `${NOT_PUBLIC} (${host} is this machine)`;
  if (LOCAL_TLDS.includes(tld)) return `${NOT_PUBLIC} (${host} is a local or internal name)`;
  const carried = carriedAddress(labels);
  if (carried) return `${NOT_PUBLIC} (${host} carries the address ${carried}, which is not public)`;
  return null;
}

/**
 * A non-public IPv4 address written inside a name, as wildcard DNS services answer it
 * (127.0.0.1.nip.io, app.10.0.0.5.sslip.io, 169-254-169-254.sslip.io, magic.7f000001.nip.io);
 * null when the name carries none. A name that resolves to a private address without saying so
 * cannot be seen here: see the README on what the platform's fetch refuses.
 */
function carriedAddress(labels: string[]): string | null {
  const octet = (s: string) => /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s);
  const candidates: string[] = [];
  for (let i = 0; i + 4 <= labels.length - 1; i++) if (labels.slice(i, i + 4).every(octet)) candidates.push(labels.slice(i, i + 4).join('.'));
  for (const label of labels.slice(0, -1)) {
    const dashed = label.split('-');
    for (let i = 0; i + 4 <= dashed.length; i++) if (dashed.slice(i, i + 4).every(octet)) candidates.push(dashed.slice(i, i + 4).join('.'));
    if (/^[0-9a-f]{8}$/.test(label)) candidates.push([0, 2, 4, 6].map((at) => parseInt(label.slice(at, at + 2), 16)).join('.'));
  }
  return candidates.find((dotted) => ipv4Problem(dotted) !== null) ?? null;
}

/** IPv4 ranges no public host has: IANA special-purpose registry plus CGNAT and multicast. */
const IPV4_BLOCKED: [string, number, string][] = [
  ['0.0.0.0', 8, 'unspecified ("this network")'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT (shared)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (and broadcast)'],
];

const ipv4Number = (dotted: string): number => dotted.split('.').reduce((n, part) => n * 256 + Number(part), 0);

function ipv4Problem(dotted: string): string | null {
  const n = ipv4Number(dotted);
  for (const [base, bits, what] of IPV4_BLOCKED) {
    const size = 2 ** (32 - bits);
    const start = ipv4Number(base);
    if (n >= start && n < start + size) return `${NOT_PUBLIC} (${dotted} is a ${what} address)`;
  }
  return null;
}

/** The eight 16-bit groups of a compressed IPv6 address as `new URL` prints it (no zone, no IPv4 tail). */
export function ipv6Groups(text: string): number[] | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function ipv6Problem(text: string): string | null {
  const g = ipv6Groups(text);
  if (!g) return 'is not a valid URL';
  const embedded = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const at = `${NOT_PUBLIC} ([${text}] is`;
  if (zeros(0, 8)) return `${at} the unspecified address)`;
  if (zeros(0, 7) && g[7] === 1) return `${at} loopback)`;
  // IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d: the IPv4 address decides.
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0)) return ipv4Problem(embedded(g[6]!, g[7]!)) && `${at} ${embedded(g[6]!, g[7]!)}, which is not public)`;
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return ipv4Problem(embedded(g[6]!, g[7]!)) && `${at} ${embedded(g[6]!, g[7]!)}, which is not public)`;
  // NAT64 64:ff9b::a.b.c.d (and the local-use 64:ff9b:1::/48): the IPv4 address decides.
  if (g[0] === 0x64 && g[1] === 0xff9b) return g[2] === 1 ? `${at} local-use NAT64)` : ipv4Problem(embedded(g[6]!, g[7]!)) && `${at} ${embedded(g[6]!, g[7]!)}, which is not public)`;
  // 6to4 2002:a.b.c.d::/48: the IPv4 address in groups 1-2 decides.
  if (g[0] === 0x2002) return ipv4Problem(embedded(g[1]!, g[2]!)) && `${at} ${embedded(g[1]!, g[2]!)} (6to4), which is not public)`;
  if ((g[0]! & 0xfe00) === 0xfc00) return `${at} a unique local (private) address)`;
  if ((g[0]! & 0xffc0) === 0xfe80) return `${at} link-local)`;
  if ((g[0]! & 0xffc0) === 0xfec0) return `${at} site-local)`;
  if ((g[0]! & 0xff00) === 0xff00) return `${at} multicast)`;
  if (g[0] === 0x2001 && g[1] === 0xdb8) return `${at} a documentation address)`;
  if (g[0] === 0x3fff && g[1]! < 0x1000) return `${at} a documentation address)`;
  if (g[0] === 0x100 && zeros(1, 4)) return `${at} a discard-only address)`;
  if (g[0] === 0x2001 && g[1]! < 0x200) return `${at} an IETF protocol assignment (Teredo, benchmarking, ORCHID))`;
  return null;
}
