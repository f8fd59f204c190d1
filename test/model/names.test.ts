/**
 * Words in generated documentation read as English: the indefinite article goes by sound ("An Order created",
 * "a User", "a URL", "an SDK").
 */
import { describe, expect, it } from 'vitest';
import { capitalized, withArticle } from '../../generator/model/names.ts';

describe('withArticle', () => {
  it('picks a or an by the first sound', () => {
    const cases: [string, string][] = [
      ['Order', 'an Order'],
      ['Invoice', 'an Invoice'],
      ['Customer', 'a Customer'],
      ['User', 'a User'],
      ['Unit', 'a Unit'],
      ['Update', 'an Update'],
      ['European', 'a European'],
      ['hour', 'an hour'],
      ['Hotel', 'a Hotel'],
      ['one', 'a one'],
      ['object', 'an object'],
      ['array', 'an array'],
      ['URL', 'a URL'],
      ['SDK', 'an SDK'],
      ['UUID', 'a UUID'],
      ['HTTP', 'an HTTP'],
    ];
    for (const [word, expected] of cases) expect(withArticle(word), word).toBe(expected);
  });

  it('starts a sentence', () => {
    expect(capitalized(withArticle('Order'))).toBe('An Order');
  });
});
