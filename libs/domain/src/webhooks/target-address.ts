/**
 * Which network addresses a webhook may be delivered to (the SSRF policy). Pure: it classifies an
 * address literal; resolving host names and connecting is the adapters' work, and they call this
 * for every address they are about to use (at create/update time and again at delivery time).
 *
 * Only globally routable unicast addresses are "public". Everything else (loopback, RFC 1918,
 * link-local with the cloud metadata endpoint, CGNAT, multicast, unspecified, documentation and
 * reserved ranges, IPv6 unique-local / link-local / site-local) is refused. Addresses that embed
 * an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are
 * judged by the IPv4 address they lead to, so `[::ffff:127.0.0.1]` is loopback.
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'cgnat'
  | 'multicast'
  | 'unique_local'
  | 'documentation'
  | 'reserved'
  | 'invalid';

type Range4 = readonly [base: number, prefix: number, cls: AddressClass];

/** Most specific first: the first matching range wins. */
const IPV4_RANGES: readonly Range4[] = [
  [v4(169, 254, 169, 254), 32, 'metadata'],
  [v4(0, 0, 0, 0), 8, 'unspecified'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'cgnat'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  [v4(169, 254, 0, 0), 16, 'link_local'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'reserved'],
  [v4(192, 0, 2, 0), 24, 'documentation'],
  [v4(192, 88, 99, 0), 24, 'reserved'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'reserved'],
  [v4(198, 51, 100, 0), 24, 'documentation'],
  [v4(203, 0, 113, 0), 24, 'documentation'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

function inRange4(address: number, base: number, prefix: number): boolean {
  if (prefix === 0) return true;
  const mask = prefix === 32 ? 0xffffffff : ~((1 << (32 - prefix)) - 1) >>> 0;
  return (address & mask) >>> 0 === (base & mask) >>> 0;
}

/** Strict dotted-decimal IPv4 (what URL parsing and DNS produce); anything else is not IPv4. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

function classify4(address: number): AddressClass {
  for (const [base, prefix, cls] of IPV4_RANGES) if (inRange4(address, base, prefix)) return cls;
  return 'public';
}

/** IPv6 text (compressed forms, embedded dotted IPv4, zone index) as a 128-bit integer. */
export function parseIpv6(text: string): bigint | null {
  let body = text;
  const zone = body.indexOf('%');
  if (zone !== -1) body = body.slice(0, zone);
  if (!body.includes(':')) return null;

  let tail4: number | null = null;
  const lastColon = body.lastIndexOf(':');
  const last = body.slice(lastColon + 1);
  if (last.includes('.')) {
    tail4 = parseIpv4(last);
    if (tail4 === null) return null;
    body = body.slice(0, lastColon + 1) + '0:0';
  }

  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':'));
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = halves.length === 2 ? [...head, ...Array<string>(missing).fill('0'), ...rest] : head;

  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (tail4 !== null) value = (value & ~0xffffffffn) | BigInt(tail4);
  return value;
}

const bits6 = (text: string) => parseIpv6(text)!;
const inRange6 = (address: bigint, base: bigint, prefix: number) =>
  address >> BigInt(128 - prefix) === base >> BigInt(128 - prefix);

const low32 = (address: bigint) => Number(address & 0xffffffffn);

function classify6(address: bigint): AddressClass {
  if (address === 0n) return 'unspecified';
  if (address === 1n) return 'loopback';
  if (inRange6(address, bits6('::ffff:0:0'), 96)) return classify4(low32(address)); // IPv4-mapped
  if (inRange6(address, bits6('64:ff9b::'), 96)) return classify4(low32(address)); // NAT64 well-known prefix
  if (inRange6(address, bits6('2002::'), 16)) return classify4(Number((address >> 80n) & 0xffffffffn)); // 6to4
  if (address === bits6('fd00:ec2::254')) return 'metadata'; // AWS IPv6 instance metadata
  if (inRange6(address, bits6('::'), 96)) return 'reserved'; // IPv4-compatible (deprecated)
  if (inRange6(address, bits6('64:ff9b:1::'), 48)) return 'reserved'; // local-use NAT64
  if (inRange6(address, bits6('100::'), 64)) return 'reserved'; // discard-only
  if (inRange6(address, bits6('2001:db8::'), 32)) return 'documentation';
  if (inRange6(address, bits6('3fff::'), 20)) return 'documentation';
  if (inRange6(address, bits6('2001::'), 23)) return 'reserved'; // IETF protocol assignments, Teredo
  if (inRange6(address, bits6('fc00::'), 7)) return 'unique_local';
  if (inRange6(address, bits6('fe80::'), 10)) return 'link_local';
  if (inRange6(address, bits6('fec0::'), 10)) return 'reserved'; // site-local (deprecated)
  if (inRange6(address, bits6('ff00::'), 8)) return 'multicast';
  if (!inRange6(address, bits6('2000::'), 3)) return 'reserved'; // outside global unicast
  return 'public';
}

/** The class of an IPv4 or IPv6 address literal (`invalid` when it is neither). */
export function classifyAddress(address: string): AddressClass {
  const ipv4 = parseIpv4(address);
  if (ipv4 !== null) return classify4(ipv4);
  const ipv6 = parseIpv6(address);
  if (ipv6 !== null) return classify6(ipv6);
  return 'invalid';
}

export const isPublicAddress = (address: string) => classifyAddress(address) === 'public';

/**
 * The address literal in a URL host (as `URL.hostname` gives it: IPv6 in brackets), or null when
 * the host is a name that must be resolved first.
 */
export function addressLiteralOf(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) {
    const inner = hostname.slice(1, -1);
    return parseIpv6(inner) !== null ? inner : null;
  }
  return parseIpv4(hostname) !== null ? hostname : null;
}
