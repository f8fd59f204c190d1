/**
 * A receiver's `Retry-After` (RFC 9110 section 10.2.3): delay-seconds (digits only) or an HTTP-date in the
 * future, in any of the three forms a recipient must accept (IMF-fixdate, RFC 850, asctime). Anything else
 * (`-5`, `1.5`, `soon`, a date that has passed) is not a `Retry-After` at all and is ignored: the retry
 * schedule applies. A wait is at least {@link MIN_RETRY_AFTER} and at most the dispatcher's cap.
 */

/** The shortest wait a `Retry-After` gets: `0` must not let a receiver use up every attempt in a moment. */
export const MIN_RETRY_AFTER = 1_000;

const DAYS = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAYS = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH = `(${MONTHS.join('|')})`;
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^${DAYS}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT` */
const RFC850 = new RegExp(`^${LONG_DAYS}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
/** `Sun Nov  6 08:49:37 1994` */
const ASCTIME = new RegExp(`^${DAYS} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** The time (ms since the epoch, UTC) of a date's parts, or null when they name no real moment (Feb 30, 25:00). */
function utc(year: number, month: string, day: string, h: string, m: string, s: string): number | null {
  const mon = MONTHS.indexOf(month);
  const [dd, hh, mm, ss] = [Number(day), Number(h), Number(m), Number(s)];
  if (hh > 23 || mm > 59 || ss > 60) return null;
  const at = Date.UTC(year, mon, dd, hh, mm, Math.min(ss, 59));
  return new Date(at).getUTCDate() === dd ? at : null;
}

/**
 * An HTTP-date's time, or null. A two-digit RFC 850 year more than 50 years ahead of `now` is the most
 * recent past year with those digits (RFC 9110 section 5.6.7).
 */
export function httpDate(text: string, now: number): number | null {
  let parts = IMF_FIXDATE.exec(text);
  if (parts) return utc(Number(parts[3]), parts[2]!, parts[1]!, parts[4]!, parts[5]!, parts[6]!);
  parts = RFC850.exec(text);
  if (parts) {
    const thisYear = new Date(now).getUTCFullYear();
    let year = Math.floor(thisYear / 100) * 100 + Number(parts[3]);
    if (year > thisYear + 50) year -= 100;
    return utc(year, parts[2]!, parts[1]!, parts[4]!, parts[5]!, parts[6]!);
  }
  parts = ASCTIME.exec(text);
  if (parts) return utc(Number(parts[6]), parts[1]!, parts[2]!.trim(), parts[3]!, parts[4]!, parts[5]!);
  return null;
}

/**
 * How long a `Retry-After` asks to wait, in ms, between {@link MIN_RETRY_AFTER} and `max`; undefined when
 * there is none or it is not one (the retry schedule applies).
 */
export function retryAfterOf(value: string | null | undefined, now: number, max: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  let wait: number;
  if (/^\d+$/.test(text)) wait = Number(text) * 1000;
  else {
    const at = httpDate(text, now);
    if (at === null || at <= now) return undefined;
    wait = at - now;
  }
  return Math.min(max, Math.max(MIN_RETRY_AFTER, wait));
}
