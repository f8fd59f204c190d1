/**
 * @module Naming helpers shared by the model and the emitters.
 */

/** `order_items` gives `OrderItems`; `shop` gives `Shop`. */
export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** `orders` gives `order`, `categories` gives `category`, `addresses` gives `address`. */
export function singularize(name: string): string {
  if (/ies$/i.test(name)) return name.slice(0, -3) + 'y';
  if (/(ss|x|ch|sh|zz)es$/i.test(name)) return name.slice(0, -2);
  if (/ses$/i.test(name)) return name.slice(0, -1);
  if (/[^s]s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** Letters whose names start with a vowel sound, read out in an acronym: an SDK, an HTTP header, a URL. */
const VOWEL_SOUND_LETTERS = new Set('AEFHILMNORSX');

/**
 * `word` with the indefinite article its sound takes: `an Order`, `a User`, `an hour`, `a UUID`, `an SDK`.
 * English picks by the first sound, not the first letter; this knows the common exceptions (a long u or
 * "one" after a vowel letter, a silent h) and reads an all-capital acronym letter by letter.
 */
export function withArticle(word: string): string {
  const first = /^[A-Z]{2,}(?![a-z])/.test(word) ? word[0]! : undefined;
  const lower = word.toLowerCase();
  const vowelSound = first
    ? VOWEL_SOUND_LETTERS.has(first)
    : /^(hour|honest|honou?r|heir)/.test(lower) || (/^[aeiou]/.test(lower) && !/^(uni|use|usa|usu|uti|ure|uro|ubi|eu|ewe|one\b|once)/.test(lower));
  return `${vowelSound ? 'an' : 'a'} ${word}`;
}

/** `text` with its first letter in capitals, to start a sentence. */
export function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `order_items` reads `order items`. */
export function humanName(name: string): string {
  return name.replace(/[_-]+/g, ' ');
}
