/**
 * Where webhooks may go: https to public addresses. The host is resolved and every address it resolves
 * to must be public (not loopback, private, link-local, CGNAT, unique-local, multicast or reserved), when
 * an endpoint is saved and again before each delivery (a name that resolved to a public address may
 * resolve to a private one later: DNS rebinding). `allowPrivateUrls` permits http and any address.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

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
  ["::", 128],
  ["::1", 128],
  ["::ffff:0:0", 96],
  ["64:ff9b::", 96],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  BLOCKED.addSubnet(net, bits, "ipv6");

/** Whether an IP address is one webhooks must not reach (IPv4-mapped IPv6 is judged as IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1]!, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** Resolves a host name to its addresses (injectable for tests). */
export type Resolver = (host: string) => Promise<readonly string[]>;

/** The system resolver: every address the host has. */
export const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why a URL cannot receive webhooks (the rule it breaks), or null when it can. */
export async function urlProblem(
  text: string,
  allowPrivate: boolean,
  resolve: Resolver = systemResolver,
): Promise<string | null> {
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
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: readonly string[];
  try {
    addresses = isIP(host) !== 0 ? [host] : await resolve(host);
  } catch {
    return `the host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `the host ${host} does not resolve`;
  const blocked = addresses.find(isPrivateAddress);
  return blocked === undefined
    ? null
    : `the host ${host} resolves to ${blocked}, which is not a public address (loopback, private, link-local, CGNAT and unique-local ranges are refused)`;
}
