/**
 * PostgreSQL keeps 63 bytes of an identifier (NAMEDATALEN - 1), not 63 characters: CKAN checks
 * 63 characters, and a name of 63 characters with an `à` in it is then cut by PostgreSQL, after
 * which the portal refuses every row (docs/portal.md). Every place that names a column for a
 * portal — an import's header, a push's portal names, a local rename, the window's
 * rename form — counts with these.
 */
export const MAX_IDENTIFIER_BYTES = 63;

const encoder = new TextEncoder();

/** Bytes of `text` in UTF-8 (TextEncoder: the same count in the main process and the window). */
export const utf8Bytes = (text: string): number => encoder.encode(text).length;

/** Cuts `text` to at most `maxBytes` bytes of UTF-8, never inside a character. */
export function truncateUtf8(text: string, maxBytes = MAX_IDENTIFIER_BYTES): string {
  if (utf8Bytes(text) <= maxBytes) return text;
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end);
}
