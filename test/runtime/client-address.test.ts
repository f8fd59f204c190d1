/**
 * `packages/runtime/src/client-address.ts` as source: the client a limit counts is an IPv4 address, or the /64
 * network of an IPv6 address however it is written; an IPv4-mapped IPv6 address is its IPv4 address.
 */
import { describe, expect, it } from 'vitest';
import { limitKeyOf } from '../../packages/runtime/src/client-address.ts';

describe('limitKeyOf', () => {
  it('keeps an IPv4 address as it is', () => {
    for (const ip of ['127.0.0.1', '203.0.113.9', '8.8.8.8']) expect(limitKeyOf(ip)).toBe(ip);
  });

  it('counts an IPv6 address as its /64 network, in every notation', () => {
    const key = '2001:db8:7:1::/64';
    for (const ip of [
      '2001:db8:7:1::1',
      '2001:db8:7:1:ffff:ffff:ffff:ffff',
      '2001:0db8:0007:0001:0000:0000:0000:0002',
      '2001:DB8:7:1:a:b:c:d',
      '2001:db8:7:1::1%eth0',
      '2001:db8:7:1::192.0.2.1',
    ])
      expect(limitKeyOf(ip), ip).toBe(key);
    expect(limitKeyOf('2001:db8:7:2::1')).toBe('2001:db8:7:2::/64');
    expect(limitKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(limitKeyOf('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(limitKeyOf('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address it holds', () => {
    expect(limitKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(limitKeyOf('::ffff:cb00:7109')).toBe('203.0.113.9');
    expect(limitKeyOf('0:0:0:0:0:ffff:cb00:7109')).toBe('203.0.113.9');
  });

  it('leaves anything that is no IP address as it is', () => {
    for (const text of ['', 'unknown', 'not:an:address', '1:2:3']) expect(limitKeyOf(text)).toBe(text);
  });
});
