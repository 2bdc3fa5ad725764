/**
 * Column names as a CKAN portal's DataStore can keep them (issue 23). PostgreSQL keeps 63 bytes
 * of an identifier (NAMEDATALEN - 1); a real CKAN 2.10 accepted a table with longer names, cut
 * them silently, and then refused every row. Push does what ckanext-xloader does with CSV
 * headers: a longer name is cut to 63 bytes of UTF-8 on a character boundary (and trailing
 * spaces dropped), and a cut name that another column already has gets `_2`, `_3`… in its
 * last bytes. The names depend only on the local column names, so a later push of the same
 * table gets the same ones.
 */
import { MAX_IDENTIFIER_BYTES, truncateUtf8, utf8Bytes } from '../../shared/identifier-bytes';

export interface PortalColumnNames {
  /** The portal's name of each local column, in the same order. */
  readonly names: readonly string[];
  /** The columns whose names changed, in column order. */
  readonly renamed: readonly { from: string; to: string }[];
}

export function portalColumnNames(ids: readonly string[]): PortalColumnNames {
  // Names that fit are kept as they are and win over cut ones.
  const taken = new Set(ids.filter((id) => utf8Bytes(id) <= MAX_IDENTIFIER_BYTES));
  const renamed: { from: string; to: string }[] = [];
  const names = ids.map((id) => {
    if (utf8Bytes(id) <= MAX_IDENTIFIER_BYTES) return id;
    let to = truncateUtf8(id, MAX_IDENTIFIER_BYTES).trimEnd();
    for (let n = 2; taken.has(to); n++) {
      const suffix = `_${n}`;
      to = truncateUtf8(id, MAX_IDENTIFIER_BYTES - suffix.length).trimEnd() + suffix;
    }
    taken.add(to);
    renamed.push({ from: id, to });
    return to;
  });
  return { names, renamed };
}
