/**
 * The client a limit counts (the rate limit of anonymous requests, rejected credentials): an IPv4 address,
 * or the /64 network of an IPv6 address. A host is given a whole /64 (RFC 6177) and may send from any of
 * its 2^64 addresses, so a limit per IPv6 address would let it try without end. An IPv4 client that a
 * dual-stack socket reports as an IPv4-mapped IPv6 address (`::ffff:192.0.2.7`) is its IPv4 address.
 * Idempotency keys stay scoped to the exact address: merging clients there would replay one client's
 * answer to another.
 */
import { isIP } from 'node:net';

/** The key a limit counts `address` under: IPv4 as it is, IPv6 as `<first four groups>::/64`. */
export function limitKeyOf(address: string): string {
  if (!address.includes(':')) return address;
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) !== 6) return address;
  const groups = groupsOf(bare);
  if (groups === null) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted quad as two groups). */
function groupsOf(address: string): number[] | null {
  let text = address;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad !== null) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] === '' ? [] : halves[0]!.split(':');
  const tail = halves.length === 1 || halves[1] === '' ? [] : halves[1]!.split(':');
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  return [...head, ...Array<string>(missing).fill('0'), ...tail].map((g) => parseInt(g, 16));
}
