import { isIPv6 } from 'node:net';

/**
 * The unit a per-IP limit counts: an IPv4 address, or the /64 prefix of an IPv6 address (one
 * subscriber usually holds a whole /64 and could otherwise rotate through 2^64 addresses).
 * IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) count as their IPv4 address.
 */
export function clientAddress(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros (zone ids dropped). */
function expandIPv6(ip: string): string[] {
  const address = ip.split('%')[0];
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (e.g. 64:ff9b::1.2.3.4) fills two groups.
  const last = right.length ? right : left;
  const v4 = last.length && last[last.length - 1].includes('.') ? last.pop()!.split('.').map(Number) : null;
  if (v4) last.push(((v4[0] << 8) | v4[1]).toString(16), ((v4[2] << 8) | v4[3]).toString(16));
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => parseInt(group, 16).toString(16));
}
