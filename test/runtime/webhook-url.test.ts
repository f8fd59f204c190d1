/**
 * `packages/runtime/src/webhook-url.ts` as source: which addresses webhooks may reach (public IPv4 and IPv6 yes;
 * loopback, private, link-local, CGNAT, unique-local, reserved and their IPv4-mapped forms no), the rules a
 * URL is checked against, and the lookup a delivery connects through (it hands the connection only the
 * addresses it checked).
 */
import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, isPrivateAddress, RefusedAddress, urlProblem } from '../../packages/runtime/src/webhook-url.ts';

describe('isPrivateAddress', () => {
  it('lets public IPv4 and IPv6 addresses through, in every notation', () => {
    for (const address of [
      '93.184.216.34',
      '8.8.8.8',
      '1.1.1.1',
      '151.101.1.69',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
      '::ffff:8.8.8.8',
      '::ffff:808:808',
    ])
      expect(isPrivateAddress(address), address).toBe(false);
  });

  it('refuses loopback, private, link-local, CGNAT, unique-local, documentation and multicast ranges, IPv4-mapped ones too', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '192.0.2.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '2001:db8::1',
      '64:ff9b::7f00:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::FFFF:A9FE:A9FE',
      'not an address',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
  });
});

describe('urlProblem', () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => table[host] ?? [];

  it('accepts an https URL whose host resolves to public addresses only', async () => {
    const resolve = resolver({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    await expect(urlProblem('https://hooks.example.com/in', false, resolve)).resolves.toBeNull();
    await expect(urlProblem('https://93.184.216.34/in', false, resolve)).resolves.toBeNull();
  });

  it('names the rule a URL breaks', async () => {
    const resolve = resolver({ 'mixed.example.com': ['93.184.216.34', '10.0.0.7'], 'nowhere.example.com': [] });
    await expect(urlProblem('https://mixed.example.com/in', false, resolve)).resolves.toContain('resolves to 10.0.0.7, which is not a public address');
    await expect(urlProblem('https://nowhere.example.com/in', false, resolve)).resolves.toContain('does not resolve');
    await expect(urlProblem('http://hooks.example.com/in', false, resolve)).resolves.toContain('must use https');
    await expect(urlProblem('https://u:p@hooks.example.com/in', false, resolve)).resolves.toContain('credentials');
    await expect(urlProblem('/relative', false, resolve)).resolves.toContain('not an absolute URL');
    await expect(urlProblem('https://[::ffff:7f00:1]/in', false, resolve)).resolves.toContain('not a public address');
  });
});

describe('guardedLookup', () => {
  type Answer = { error: Error | null; address: string | LookupAddress[]; family?: number };
  const lookUp = (lookup: NonNullable<ReturnType<typeof guardedLookup>>, host: string, options: { all?: boolean; family?: number }) =>
    new Promise<Answer>((resolve) =>
      (lookup as unknown as (h: string, o: object, cb: (e: Error | null, a: string | LookupAddress[], f?: number) => void) => void)(
        host,
        options,
        (error, address, family) => resolve({ error, address, ...(family !== undefined ? { family } : {}) }),
      ),
    );

  it('hands over the addresses it checked, in both of the shapes a connection asks for', async () => {
    const lookup = guardedLookup(false, async () => ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'])!;
    expect(await lookUp(lookup, 'hooks.example.com', { all: true })).toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
      ],
    });
    expect(await lookUp(lookup, 'hooks.example.com', {})).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    expect(await lookUp(lookup, 'hooks.example.com', { family: 6 })).toEqual({ error: null, address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 });
  });

  it('fails the connection when any address is not public, or the name does not resolve', async () => {
    const lookup = guardedLookup(false, async (host) => {
      if (host === 'broken.example.com') throw new Error('ENOTFOUND');
      return host === 'rebound.example.com' ? ['93.184.216.34', '127.0.0.1'] : [];
    })!;
    const rebound = await lookUp(lookup, 'rebound.example.com', { all: true });
    expect(rebound.error).toBeInstanceOf(RefusedAddress);
    expect(rebound.error!.message).toContain('resolves to 127.0.0.1, which is not a public address');
    for (const host of ['broken.example.com', 'empty.example.com']) {
      const failed = await lookUp(lookup, host, { all: true });
      expect(failed.error).toBeInstanceOf(RefusedAddress);
      expect(failed.error!.message).toContain('does not resolve');
    }
  });

  it('leaves the system lookup alone with allowPrivateUrls', () => {
    expect(guardedLookup(true, async () => ['127.0.0.1'])).toBeUndefined();
  });
});
