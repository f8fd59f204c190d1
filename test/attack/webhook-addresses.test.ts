/**
 * Attack: webhook destinations against the IANA special-purpose address registries (IPv4 and IPv6). Every
 * address that is not globally reachable unicast is refused, whether written as an IP literal in the URL or
 * answered by DNS for a name (and again by the lookup a delivery connects through); embedded IPv4 forms
 * (IPv4-compatible, mapped, RFC 6145, 6to4, NAT64, Teredo) are never a way around it. Public addresses pass,
 * also IPv4-mapped and NAT64 (64:ff9b::/96) forms of a public IPv4 address, which reach that address.
 */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, RefusedAddress, specialRangeOf, urlProblem } from '../../packages/runtime/src/webhook-url.ts';

/** Address, and why it is refused (the IANA entry it falls in). */
const REFUSED: readonly (readonly [string, string])[] = [
  // IPv4 special-purpose registry
  ['0.0.0.0', '"this network" 0.0.0.0/8'],
  ['0.1.2.3', '"this network" 0.0.0.0/8'],
  ['10.1.2.3', 'private 10.0.0.0/8'],
  ['100.64.0.1', 'shared address space 100.64.0.0/10'],
  ['127.0.0.1', 'loopback 127.0.0.0/8'],
  ['127.255.255.254', 'loopback 127.0.0.0/8'],
  ['169.254.169.254', 'link local 169.254.0.0/16'],
  ['172.16.0.1', 'private 172.16.0.0/12'],
  ['172.31.255.255', 'private 172.16.0.0/12'],
  ['192.0.0.1', 'IETF protocol assignments 192.0.0.0/24'],
  ['192.0.0.9', 'port control protocol anycast 192.0.0.9/32'],
  ['192.0.2.1', 'documentation TEST-NET-1 192.0.2.0/24'],
  ['192.31.196.1', 'AS112-v4 192.31.196.0/24'],
  ['192.52.193.1', 'AMT 192.52.193.0/24'],
  ['192.88.99.1', 'deprecated 6to4 relay anycast 192.88.99.0/24'],
  ['192.168.1.1', 'private 192.168.0.0/16'],
  ['192.175.48.1', 'direct delegation AS112 192.175.48.0/24'],
  ['198.18.0.1', 'benchmarking 198.18.0.0/15'],
  ['198.51.100.7', 'documentation TEST-NET-2 198.51.100.0/24'],
  ['203.0.113.9', 'documentation TEST-NET-3 203.0.113.0/24'],
  ['224.0.0.1', 'multicast 224.0.0.0/4'],
  ['240.0.0.1', 'reserved 240.0.0.0/4'],
  ['255.255.255.255', 'limited broadcast'],
  // IPv6 special-purpose registry
  ['::', 'unspecified ::/128'],
  ['::1', 'loopback ::1/128'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated) ::/96, holding loopback'],
  ['::7f00:1', 'IPv4-compatible ::/96, hex form'],
  ['::8.8.8.8', 'IPv4-compatible ::/96, even holding a public address'],
  ['::ffff:127.0.0.1', 'IPv4-mapped ::ffff:0:0/96 holding loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped, hex form'],
  ['::ffff:a9fe:a9fe', 'IPv4-mapped link local (metadata service)'],
  ['::ffff:0:7f00:1', 'IPv4-translated ::ffff:0:0:0/96 (RFC 6145)'],
  ['64:ff9b::7f00:1', 'NAT64 well-known prefix holding loopback'],
  ['64:ff9b::a00:1', 'NAT64 well-known prefix holding 10.0.0.1'],
  ['64:ff9b:1::7f00:1', 'NAT64 local-use prefix 64:ff9b:1::/48'],
  ['64:ff9b:1::808:808', 'NAT64 local-use prefix, even holding a public address'],
  ['100::1', 'discard-only 100::/64'],
  ['2001::1', 'IETF protocol assignments 2001::/23, Teredo 2001::/32'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo 2001::/32'],
  ['2001:1::1', 'port control protocol anycast 2001:1::1/128'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:3::1', 'AMT 2001:3::/32'],
  ['2001:4:112::1', 'AS112-v6 2001:4:112::/48'],
  ['2001:10::1', 'deprecated ORCHID 2001:10::/28'],
  ['2001:20::1', 'ORCHIDv2 2001:20::/28'],
  ['2001:30::1', 'drone remote ID 2001:30::/28'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['2002:7f00:1::1', '6to4 2002::/16 holding loopback'],
  ['2002:808:808::1', '6to4 2002::/16, deprecated even holding a public address'],
  ['2620:4f:8000::1', 'direct delegation AS112 2620:4f:8000::/48'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['5f00::1', 'segment routing SIDs 5f00::/16'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fd12:3456::1', 'unique local fc00::/7'],
  ['fe80::1', 'link local fe80::/10'],
  ['fec0::1', 'deprecated site local fec0::/10'],
  ['ff02::1', 'multicast ff00::/8'],
  ['4000::1', 'not yet allocated (outside 2000::/3)'],
];

/** Globally reachable unicast: webhooks may go there. */
const ALLOWED: readonly string[] = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '151.101.1.69',
  '192.0.1.1',
  '192.88.98.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450:4001:80b::200e',
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
];

describe('webhook destinations (IANA special-purpose registries)', () => {
  it.each(REFUSED)('refuses %s (%s)', async (address) => {
    expect(specialRangeOf(address), address).not.toBeNull();
    // As an IP literal in the URL.
    const literal = address.includes(':') ? `[${address}]` : address;
    await expect(urlProblem(`https://${literal}/hook`, false), address).resolves.toContain('not a public address');
    // As what DNS answers for a name.
    const resolve = async () => [address];
    await expect(urlProblem('https://hooks.example.com/hook', false, resolve), address).resolves.toContain(`resolves to ${address}`);
    // And by the lookup a delivery connects through: no address is handed to the connection.
    const lookup = guardedLookup(false, resolve)!;
    const error = await new Promise<unknown>((done) => lookup('hooks.example.com', { all: true }, (err) => done(err)));
    expect(error, address).toBeInstanceOf(RefusedAddress);
  });

  it.each(ALLOWED)('lets %s through', async (address) => {
    expect(specialRangeOf(address)).toBeNull();
    const literal = address.includes(':') ? `[${address}]` : address;
    await expect(urlProblem(`https://${literal}/hook`, false)).resolves.toBeNull();
    const resolve = async () => [address];
    await expect(urlProblem('https://hooks.example.com/hook', false, resolve)).resolves.toBeNull();
    const lookup = guardedLookup(false, resolve)!;
    const handed = await new Promise<LookupAddress[]>((done, fail) =>
      lookup('hooks.example.com', { all: true }, (err, addresses) => (err ? fail(err) : done(addresses as unknown as LookupAddress[]))),
    );
    expect(handed.map((a) => a.address)).toEqual([address]);
  });

  it('refuses a name when any one of its addresses is not public (the connection could pick it)', async () => {
    const resolve = async () => ['93.184.216.34', '::ffff:0:7f00:1'];
    await expect(urlProblem('https://mixed.example.com/hook', false, resolve)).resolves.toContain('resolves to ::ffff:0:7f00:1');
  });

  it('names the range in the message, and the IPv4 address an embedded form reaches', () => {
    expect(specialRangeOf('2001::1')).toBe('teredo');
    expect(specialRangeOf('2002:7f00:1::1')).toBe('6to4');
    expect(specialRangeOf('::ffff:7f00:1')).toBe('loopback (as 127.0.0.1)');
    expect(specialRangeOf('64:ff9b::a00:1')).toBe('private (as 10.0.0.1)');
    expect(specialRangeOf('not an address')).toBe('invalid');
  });
});
