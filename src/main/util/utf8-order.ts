/**
 * Strings in the order of their UTF-8 bytes (SQLite's BINARY collation, PostgreSQL's lexeme
 * order in a tsvector's text), without encoding them. UTF-8 byte order is code point order;
 * JavaScript's `<` compares UTF-16 units, which differs only where a surrogate (a code point
 * above U+FFFF) meets a unit of U+E000–U+FFFF.
 */
export function compareUtf8Order(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xHigh = x >= 0xd800 && x <= 0xdfff;
    const yHigh = y >= 0xd800 && y <= 0xdfff;
    if (xHigh !== yHigh) return xHigh ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
