/**
 * Unit test of `retryAfterMs` (runtime/client/retry.ts): an HTTP-date in `Retry-After` is UTC in each of
 * the three forms RFC 9110 section 5.6.7 makes recipients accept, IMF-fixdate, RFC 850 and asctime (which
 * names no zone), whatever the time zone of the process. `Date.parse` reads a zone-less date as local time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../runtime/client/retry.ts';

const FORMS = ['Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', 'Sun Nov  6 08:49:37 1994'];
const NOW = Date.UTC(1994, 10, 6, 8, 49, 27);

describe('Retry-After as an HTTP-date', () => {
  const saved = process.env['TZ'];
  afterEach(() => {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  });

  it.each(['UTC', 'America/Los_Angeles', 'Europe/Berlin', 'Asia/Tokyo'])('every form is 10 s after now in the time zone %s', (zone) => {
    process.env['TZ'] = zone;
    for (const form of FORMS) expect([form, retryAfterMs(form, NOW)]).toEqual([form, 10_000]);
  });
});
