/**
 * Where webhooks may go: https to globally reachable unicast addresses. The host is resolved and every
 * address it resolves to must be one, when an endpoint is saved and when a delivery connects: the connection
 * is made to an address the same lookup checked ({@link guardedLookup}), never to one the name resolves to
 * later (a name that resolved to a public address may resolve to a private one a moment after: DNS
 * rebinding). Addresses are classified by ipaddr.js against the IANA special-purpose registries (see
 * {@link specialRangeOf}). `allowPrivateUrls` permits http and any address.
 */
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
// NAT64 well-known prefix (RFC 6052): translated to the IPv4 address it holds, judged as that address.
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

/**
 * An IPv6 address, read from the WHATWG URL parser's canonical text: ipaddr.js reads a dotted tail as an
 * IPv4-mapped address whatever precedes it (`::8.8.8.8` as `::ffff:8.8.8.8`), the URL parser does not
 * (`[::808:808]`). Null for text it refuses (a zone id such as `%eth0`).
 */
function parseIPv6(address: string): ipaddr.IPv6 | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  return ipaddr.IPv6.isValid(canonical) ? ipaddr.IPv6.parse(canonical) : null;
}

/** The IPv4 address an IPv6 address translates to on the way out (IPv4-mapped, NAT64 well-known prefix), else null. */
function translatedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (!v6.match(NAT64)) return null;
  const [high, low] = [v6.parts[6]!, v6.parts[7]!];
  return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
}

/**
 * The special-purpose range an IP address falls in (IANA's IPv4 and IPv6 special-purpose registries, as
 * ipaddr.js names them: `loopback`, `private`, `teredo`, `6to4`, ...), or null for a globally reachable
 * unicast address. IPv6 must be global unicast (2000::/3) and outside every special range there, so the
 * IPv4-compatible `::a.b.c.d`, `::ffff:0:a.b.c.d` (RFC 6145), the local-use NAT64 prefix 64:ff9b:1::/48,
 * site-local fec0::/10, 6to4, Teredo and the other forms that carry an IPv4 address inside are refused; an
 * IPv4-mapped address and one in the NAT64 well-known prefix 64:ff9b::/96 are judged as the IPv4 address
 * they reach. Anycast services with their own range (AS112, AMT) are refused too: no webhook belongs there.
 * Text that is not an IP address is `invalid`.
 */
export function specialRangeOf(address: string): string | null {
  const family = isIP(address);
  if (family === 0) return 'invalid';
  if (family === 4) {
    const range = ipaddr.IPv4.parse(address).range();
    return range === 'unicast' ? null : range;
  }
  const v6 = parseIPv6(address);
  if (v6 === null) return 'invalid';
  const v4 = translatedIPv4(v6);
  if (v4 !== null) {
    const range = v4.range();
    return range === 'unicast' ? null : `${range} (as ${v4.toString()})`;
  }
  const range = v6.range();
  if (range !== 'unicast') return range;
  return v6.match(GLOBAL_UNICAST) ? null : 'not global unicast';
}

/** Whether an IP address is one webhooks must not reach (anything but globally reachable unicast). */
export function isPrivateAddress(address: string): boolean {
  return specialRangeOf(address) !== null;
}

/** Resolves a host name to its addresses (injectable for tests). */
export type Resolver = (host: string) => Promise<readonly string[]>;

/** The system resolver: every address the host has. */
export const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why the addresses of `host` cannot receive webhooks, or null when every one is public. */
function addressProblem(host: string, addresses: readonly string[]): string | null {
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  for (const address of addresses) {
    const range = specialRangeOf(address);
    if (range !== null)
      return `the host ${host} resolves to ${address}, which is not a public address (${range}; only globally reachable unicast addresses receive webhooks)`;
  }
  return null;
}

/**
 * Why a URL cannot receive webhooks by its text alone (not absolute, credentials, not https, a private IP
 * literal), or null: what a delivery checks before it connects, the connection's lookup checking the name.
 */
export function urlShapeProblem(text: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'the URL is not an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'the URL must not carry credentials (user:password@)';
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'the URL must use https';
  const host = hostOf(url);
  return allowPrivate || isIP(host) === 0 ? null : addressProblem(host, [host]);
}

/** The host of a URL without the brackets of an IPv6 literal. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/** Why a URL cannot receive webhooks (the rule it breaks, its host looked up), or null when it can. */
export async function urlProblem(text: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<string | null> {
  const shape = urlShapeProblem(text, allowPrivate);
  if (shape !== null || allowPrivate) return shape;
  const host = hostOf(new URL(text));
  if (isIP(host) !== 0) return null;
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    return `the host ${host} does not resolve`;
  }
  return addressProblem(host, addresses);
}

/** A connection refused by {@link guardedLookup}: its message is the rule the address breaks. */
export class RefusedAddress extends Error {
  override readonly name = 'RefusedAddress';
}

/**
 * The `lookup` of a delivery's connection: resolves the host with `resolve` and hands the connection only
 * addresses it checked (all public, or it fails with {@link RefusedAddress}), so the address connected to
 * is one that was checked. With `allowPrivate`, the system's lookup as it is.
 */
export function guardedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction | undefined {
  if (allowPrivate) return undefined;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addressProblem(hostname, addresses);
        if (refused !== null) {
          callback(new RefusedAddress(refused), '', 0);
          return;
        }
        const all = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((a) => a.family !== 0 && (options.family === undefined || options.family === 0 || options.family === a.family));
        if (all.length === 0) callback(new RefusedAddress(`the host ${hostname} does not resolve`), '', 0);
        else if (options.all) (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      () => callback(new RefusedAddress(`the host ${hostname} does not resolve`), '', 0),
    );
  };
}
