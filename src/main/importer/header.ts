/**
 * Turns a CSV header row into valid DataStore field ids (docs/ckan-contract.md §6): non-empty, no
 * leading/trailing whitespace, no leading `_`, no `"`, no control characters, at most 63
 * bytes of UTF-8 (so that a push to a CKAN portal keeps the name: shared/identifier-bytes.ts),
 * unique. The original cell is kept as the column's `label`, and every change
 * is reported so the CLI/UI can tell the user which names were altered and why.
 *
 * Footnote markers such as ISTAT's `(1)` / `(3)` are kept: they are legal, and stripping
 * "(n)" would also eat meaningful suffixes ("Fascia (1)").
 */

import { MAX_IDENTIFIER_BYTES, truncateUtf8, utf8Bytes } from '../../shared/identifier-bytes';

export type RenameReason = 'trimmed' | 'empty' | 'duplicate' | 'too-long' | 'leading-underscore' | 'invalid-character' | 'line-break';

export interface HeaderColumn {
  /** The field id the DataStore table gets. */
  id: string;
  /** The header cell exactly as read (BOM already removed by the decoder). */
  label: string;
}

export interface HeaderRename {
  /** 0-based column position. */
  index: number;
  from: string;
  to: string;
  reason: RenameReason;
}

export interface CleanedHeader {
  columns: HeaderColumn[];
  /** One entry per change, in column order and, within a column, in the order applied. */
  renamed: HeaderRename[];
}

const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;
// Matching whole whitespace runs with a plain `+` and deciding in the callback keeps these
// replacements linear on hostile input (a 1 MB run of spaces), unlike `\s*X\s*` patterns.
const WHITESPACE_RUN = /[\s\u0085]+/g;
const CONTROL_OR_SPACE_RUN = /[\s\p{Cc}]+/gu;
const CONTROL = /\p{Cc}/u;

/** True if `id` satisfies every CKAN field-name rule on its own (uniqueness aside). */
export function isValidFieldId(id: string): boolean {
  return (
    id !== '' && id === id.trim() && !id.startsWith('_') && !id.includes('"') && !CONTROL.test(id) && utf8Bytes(id) <= MAX_IDENTIFIER_BYTES
  );
}

/** Applies the per-name rules (everything but uniqueness) to one header cell. */
function cleanOne(raw: string, index: number, log: HeaderRename[]): { name: string; generated: boolean } {
  let name = raw;
  const apply = (next: string, reason: RenameReason): void => {
    if (next !== name) log.push({ index, from: name, to: next, reason });
    name = next;
  };
  // A header cell wrapped over several lines (ISTAT) becomes one line: the break and the
  // spaces around it turn into a single space.
  if (LINE_BREAK.test(name)) {
    apply(
      name.replace(WHITESPACE_RUN, (run) => (LINE_BREAK.test(run) ? ' ' : run)),
      'line-break',
    );
  }
  // Tabs, NUL, DEL, C1 controls (cp1252 misread as latin1): each run becomes one space.
  // `"` is replaced by `'` rather than dropped so `Nome "breve"` stays readable.
  let cleaned = CONTROL.test(name) ? name.replace(CONTROL_OR_SPACE_RUN, (run) => (CONTROL.test(run) ? ' ' : run)) : name;
  cleaned = cleaned.replace(/"/g, "'");
  apply(cleaned, 'invalid-character');
  // JS trim() also removes NBSP and a stray U+FEFF, which CKAN (Python strip) rejects or
  // users cannot see.
  apply(name.trim(), 'trimmed');
  // `_id` and `_full_text` are CKAN's own columns; a leading `_` is reserved for them.
  if (name.startsWith('_')) apply(name.replace(/^_+/, '').trimStart(), 'leading-underscore');
  let generated = false;
  if (name === '') {
    apply(`column_${index + 1}`, 'empty');
    generated = true;
  }
  if (utf8Bytes(name) > MAX_IDENTIFIER_BYTES) apply(truncateUtf8(name).trimEnd(), 'too-long');
  return { name, generated };
}

/** SQLite folds ASCII letters in identifiers: `Name` and `name` are the same column. */
class CaseInsensitiveSet {
  private readonly keys = new Set<string>();
  constructor(values: Iterable<string> = []) {
    for (const v of values) this.add(v);
  }
  has(value: string): boolean {
    return this.keys.has(value.toLowerCase());
  }
  add(value: string): void {
    this.keys.add(value.toLowerCase());
  }
}

/**
 * Cleans a header row. Duplicate names keep the first occurrence and number the others
 * `name_2`, `name_3`, … (skipping names used elsewhere in the header, shortening the base so
 * the result stays within 63 bytes). Names made up for empty cells (`column_7`, 1-based
 * position) give way to real header names. Comparison ignores case: PostgreSQL would keep
 * `Name` and `name` apart, but SQLite, which stores the table, treats them as one column.
 */
export function cleanHeader(raw: string[]): CleanedHeader {
  const perColumn: HeaderRename[][] = raw.map(() => []);
  const cleaned = raw.map((cell, i) => cleanOne(cell, i, perColumn[i]!));
  const wanted = new CaseInsensitiveSet(cleaned.map((c) => c.name));
  const taken = new CaseInsensitiveSet();
  const ids: string[] = new Array<string>(raw.length);

  const order = [...cleaned.keys()].sort((a, b) => Number(cleaned[a]!.generated) - Number(cleaned[b]!.generated) || a - b);
  for (const i of order) {
    const base = cleaned[i]!.name;
    if (!taken.has(base)) {
      ids[i] = base;
      taken.add(base);
      continue;
    }
    let id = base;
    for (let n = 2; taken.has(id) || wanted.has(id); n++) {
      const suffix = `_${n}`;
      id = truncateUtf8(base, MAX_IDENTIFIER_BYTES - suffix.length).trimEnd() + suffix;
    }
    ids[i] = id;
    taken.add(id);
    perColumn[i]!.push({ index: i, from: base, to: id, reason: 'duplicate' });
  }
  return {
    columns: raw.map((label, i) => ({ id: ids[i]!, label })),
    renamed: perColumn.flat(),
  };
}

/** The renames as the import report and the API show them (without the column position). */
export function reportedRenames(header: CleanedHeader): { from: string; to: string; reason: string }[] {
  return header.renamed.map((r) => ({ from: r.from, to: r.to, reason: r.reason }));
}
