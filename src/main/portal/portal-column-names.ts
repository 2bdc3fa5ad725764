/**
 * Column names as a CKAN portal's DataStore can keep them (issue 23). PostgreSQL keeps 63 bytes
 * of an identifier (NAMEDATALEN - 1); a real CKAN 2.10 accepted a table with longer names, cut
 * them silently, and then refused every row. Push does what ckanext-xloader does with CSV
 * headers: a longer name is cut to 63 bytes of UTF-8 on a character boundary (and trailing
 * spaces dropped), and a cut name that another column already has gets `_2`, `_3`… in its
 * last bytes. The names depend only on the local column names, so a later push of the same
 * table gets the same ones.
 */
export const MAX_COLUMN_BYTES = 63;

export interface PortalColumnNames {
  /** The portal's name of each local column, in the same order. */
  readonly names: readonly string[];
  /** The columns whose names changed, in column order. */
  readonly renamed: readonly { from: string; to: string }[];
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/** The longest start of `name` of at most `max` bytes, never half a character. */
function cut(name: string, max: number): string {
  let out = '';
  for (const ch of name) {
    if (bytes(out) + bytes(ch) > max) break;
    out += ch;
  }
  return out;
}

export function portalColumnNames(ids: readonly string[]): PortalColumnNames {
  // Names that fit are kept as they are and win over cut ones.
  const taken = new Set(ids.filter((id) => bytes(id) <= MAX_COLUMN_BYTES));
  const renamed: { from: string; to: string }[] = [];
  const names = ids.map((id) => {
    if (bytes(id) <= MAX_COLUMN_BYTES) return id;
    let to = cut(id, MAX_COLUMN_BYTES).trimEnd();
    for (let n = 2; taken.has(to); n++) {
      const suffix = `_${n}`;
      to = cut(id, MAX_COLUMN_BYTES - suffix.length).trimEnd() + suffix;
    }
    taken.add(to);
    renamed.push({ from: id, to });
    return to;
  });
  return { names, renamed };
}
