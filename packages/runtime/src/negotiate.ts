/**
 * Content negotiation (RFC 9110 section 12.5.1): the format of a request's answer, from its `Accept` header's
 * media ranges and their q-values. A format counts as acceptable through any of its media types (JSON:
 * `application/json`, `application/problem+json`; XML: `application/xml`, `text/xml`,
 * `application/problem+xml`), at the q-value of the most specific range that matches one. The highest q wins;
 * on a tie JSON does. No `Accept`, or one that cannot be read, means JSON; an `Accept` that allows no format the
 * API answers in is null, which the routes answer 406.
 */

/** A format answers are written in. */
export type Format = 'json' | 'xml';

/** The media types that stand for each format, the type answers carry first. */
const MEDIA: { readonly [F in Format]: readonly string[] } = {
  json: ['application/json', 'application/problem+json'],
  xml: ['application/xml', 'text/xml', 'application/problem+xml'],
};

/** One media range of `Accept`. */
interface Range {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

const TOKEN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The ranges of an `Accept` value; a range that cannot be read is left out. At most 64 are read. */
function rangesOf(accept: string): Range[] {
  const out: Range[] = [];
  for (const part of accept.split(',').slice(0, 64)) {
    const [media = '', ...params] = part.split(';');
    const [type = '', subtype = '', extra] = media.trim().toLowerCase().split('/');
    if (!TOKEN.test(type) || !TOKEN.test(subtype) || extra !== undefined || (type === '*' && subtype !== '*')) continue;
    let q = 1;
    for (const param of params) {
      const [name = '', value = ''] = param.split('=');
      if (name.trim().toLowerCase() !== 'q') continue;
      q = QVALUE.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    }
    if (!Number.isNaN(q)) out.push({ type, subtype, q });
  }
  return out;
}

/** The q-value `ranges` give a media type: that of the most specific range that matches it, 0 when none does. */
function qualityOf(ranges: readonly Range[], media: string): number {
  const [type, subtype] = media.split('/');
  let best = -1;
  let q = 0;
  for (const r of ranges) {
    const specificity = r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2;
    const fits = specificity === 0 || (r.type === type && (specificity === 1 || r.subtype === subtype));
    if (fits && specificity > best) {
      best = specificity;
      q = r.q;
    } else if (fits && specificity === best) q = Math.max(q, r.q);
  }
  return q;
}

/** What `Accept` chose: a format, or null when it allows none of `formats`. */
export function negotiate(accept: string | undefined, formats: readonly Format[]): Format | null {
  if (accept === undefined || accept === '*/*' || accept === 'application/json') return 'json';
  const ranges = rangesOf(accept);
  if (ranges.length === 0) return 'json';
  let chosen: Format | null = null;
  let top = 0;
  for (const format of formats) {
    const q = Math.max(...MEDIA[format].map((m) => qualityOf(ranges, m)));
    if (q > top) [chosen, top] = [format, q];
  }
  return chosen;
}

/** The XML media type an answer carries: `text/xml` only for a client that prefers it to `application/xml`. */
export function xmlMediaType(accept: string | undefined): 'application/xml' | 'text/xml' {
  const ranges = rangesOf(accept ?? '');
  return qualityOf(ranges, 'text/xml') > qualityOf(ranges, 'application/xml') ? 'text/xml' : 'application/xml';
}

/** The media types of the formats, for a 406's message. */
export const mediaTypesOf = (formats: readonly Format[]): string => formats.map((f) => MEDIA[f][0]).join(' or ');
