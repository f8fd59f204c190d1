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
