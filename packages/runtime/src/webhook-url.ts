/**
 * Where webhooks may go: https to public addresses. The host is resolved and every address it resolves
 * to must be public (not loopback, private, link-local, CGNAT, unique-local, multicast or reserved), when
 * an endpoint is saved and when a delivery connects: the connection is made to an address the same lookup
 * checked ({@link guardedLookup}), never to one the name resolves to later (a name that resolved to a public
 * address may resolve to a private one a moment after: DNS rebinding).
 * `allowPrivateUrls` permits http and any address.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP, type LookupFunction } from "node:net";

const BLOCKED = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  // IPv4-mapped addresses (::ffff:0:0/96) are judged as the IPv4 address they hold (below): a rule for
  // that range here would also match every IPv4 address, since BlockList checks IPv4 against it too.
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(net, bits, "ipv6");

const MAPPED = new BlockList();
MAPPED.addSubnet("::ffff:0:0", 96, "ipv6");

/** The IPv4 address an IPv4-mapped IPv6 address holds (in any notation), else null. */
function mappedIPv4(address: string): string | null {
  if (isIP(address) !== 6 || !MAPPED.check(address, "ipv6")) return null;
  // The URL parser writes an IPv6 address in its shortest form: [::ffff:7f00:1].
  const groups = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(
    new URL(`http://[${address}]`).hostname,
  );
  if (groups === null) return null;
  const [high, low] = [parseInt(groups[1]!, 16), parseInt(groups[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Whether an IP address is one webhooks must not reach (IPv4-mapped IPv6 is judged as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const v4 = mappedIPv4(address);
  if (v4 !== null) return BLOCKED.check(v4, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Resolves a host name to its addresses (injectable for tests). */
export type Resolver = (host: string) => Promise<readonly string[]>;

/** The system resolver: every address the host has. */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why the addresses of `host` cannot receive webhooks, or null when every one is public. */
function addressProblem(
  host: string,
  addresses: readonly string[],
): string | null {
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  const blocked = addresses.find(isPrivateAddress);
  return blocked === undefined
    ? null
    : `the host ${host} resolves to ${blocked}, which is not a public address (loopback, private, link-local, CGNAT and unique-local ranges are refused)`;
}

/**
 * Why a URL cannot receive webhooks by its text alone (not absolute, credentials, not https, a private IP
 * literal), or null: what a delivery checks before it connects, the connection's lookup checking the name.
 */
export function urlShapeProblem(
  text: string,
  allowPrivate: boolean,
): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "the URL is not an absolute URL";
  }
  if (url.username !== "" || url.password !== "")
    return "the URL must not carry credentials (user:password@)";
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    return "the URL must use https";
  const host = hostOf(url);
  return allowPrivate || isIP(host) === 0 ? null : addressProblem(host, [host]);
}

/** The host of a URL without the brackets of an IPv6 literal. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "");

/** Why a URL cannot receive webhooks (the rule it breaks, its host looked up), or null when it can. */
export async function urlProblem(
  text: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
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
  override readonly name = "RefusedAddress";
}

/**
 * The `lookup` of a delivery's connection: resolves the host with `resolve` and hands the connection only
 * addresses it checked (all public, or it fails with {@link RefusedAddress}), so the address connected to
 * is one that was checked. With `allowPrivate`, the system's lookup as it is.
 */
export function guardedLookup(
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): LookupFunction | undefined {
  if (allowPrivate) return undefined;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = addressProblem(hostname, addresses);
        if (refused !== null) {
          callback(new RefusedAddress(refused), "", 0);
          return;
        }
        const all = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter(
            (a) =>
              a.family !== 0 &&
              (options.family === undefined ||
                options.family === 0 ||
                options.family === a.family),
          );
        if (all.length === 0)
          callback(
            new RefusedAddress(`the host ${hostname} does not resolve`),
            "",
            0,
          );
        else if (options.all)
          (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      () =>
        callback(
          new RefusedAddress(`the host ${hostname} does not resolve`),
          "",
          0,
        ),
    );
  };
}
