import { ValidationError } from '../../errors';
import type { Column } from '../column-store/column';
import type { TableStore } from '../column-store/table-store';
import type { FieldType } from '../field-types';
import type { JournalEntry, JournalOp } from '../journal/journal-entry';
import { storedCell } from '../sqlite/table-file-writer';
import type { StoredValue } from '../values/coerce';

/**
 * Row writes are checked against the column store, not SQLite (docs/architecture.md §3): the
 * engine holds no SQLite copy of a table; the SQL worker applies the journal to its own. What
 * SQLite's transaction gave a write before is here: the request's own changes seen by its
 * later records (`WriteState`), and the table's `primary_key` as a unique index (`KeyIndex`),
 * with SQLite's notion of equal keys: values compared as the column stores them (an INTEGER
 * column's `12` and `12.0` are one key; a numeric column's `2.5` and text `2.50` are two),
 * and a key with a NULL part never equal to another.
 */

/** A key's text, or null when a part is NULL (a NULL key matches nothing and conflicts with nothing). */
export function keyText(values: readonly StoredValue[], types: readonly FieldType[]): string | null {
  let key = '';
  for (let i = 0; i < values.length; i++) {
    const cell = storedCell(values[i]!, types[i]!.sqliteType);
    if (cell.kind === 'null') return null;
    key += cell.kind === 'text' ? `t${cell.text}\u0000` : `n${typeof cell.value === 'bigint' ? cell.value : String(cell.value)}\u0000`;
  }
  return key;
}

/**
 * A key as the index holds it: a one-column key whose stored cell is an integer kind with a
 * safe integer value (`12`, `12.0` and the text `12` in an INTEGER column alike) is that
 * number, any other key its text (`keyText`). A number and a text never meet in a Map, and in
 * a column of one affinity no other cell has the text of such an integer (a real cell there
 * is never a safe integer's value: INTEGER stores those as integers, REAL never makes an
 * integer cell, BLOB makes integer cells of every 32-bit integer), so two keys are equal
 * exactly when their texts are. A Map of a million numbers is built in a fraction of the
 * time of a million strings, which were most of a keyed table's first write.
 */
export type IndexKey = string | number;

export function indexKey(values: readonly StoredValue[], types: readonly FieldType[]): IndexKey | null {
  if (values.length === 1) {
    const cell = storedCell(values[0]!, types[0]!.sqliteType);
    if (cell.kind === 'integer' && typeof cell.value === 'number' && Number.isSafeInteger(cell.value)) return cell.value;
  }
  return keyText(values, types);
}

/**
 * Lookups of a one-column key answered by a pass over its column before the map of every
 * row is built: a write of a few records then builds nothing (the map of a million keys was
 * most of a keyed table's first write); a bulk write builds it once.
 */
const SCANS_BEFORE_INDEX = 16;

/**
 * The table's primary key → its row, built at the first write that needs it (after a few
 * lookups by scan, for a one-column key) and then kept up to date by every committed write
 * (`update`, before the column store changes). Keys are unique in the store (checked when the
 * key is set and at every write), so a scan finds the row the map would.
 */
export class KeyIndex {
  private rows: Map<IndexKey, number> | null = null;
  private readonly types: FieldType[];
  private scans = 0;
  /** For scans: the key of each dictionary code of the one key column (dictionaries only grow). */
  private codeKeys: (IndexKey | null)[] = [null];
  private scanned: Column | null = null;

  constructor(
    private readonly store: TableStore,
    readonly columns: readonly string[],
  ) {
    this.types = columns.map((id) => store.column(id)!.type);
  }

  private index(): Map<IndexKey, number> {
    if (!this.rows) {
      const rows = new Map<IndexKey, number>();
      const only = this.columns.length === 1 ? this.store.column(this.columns[0]!)! : null;
      for (const rowId of this.store.liveRowIds()) {
        const key = only ? this.keyOf([only.valueOf(rowId)]) : this.keyOfRow(rowId);
        if (key !== null) rows.set(key, rowId);
      }
      this.rows = rows;
      this.codeKeys = [null];
      this.scanned = null;
    }
    return this.rows;
  }

  /** The live row holding `key`, by one pass over the column's dictionary, then its codes. */
  private scan(key: IndexKey): number | undefined {
    const column = this.store.column(this.columns[0]!)!;
    if (this.scanned !== column) {
      this.scanned = column;
      this.codeKeys = [null];
    }
    const values = column.values;
    const codeKeys = this.codeKeys;
    for (let code = codeKeys.length; code < values.length; code++) codeKeys.push(indexKey([values[code]!], this.types));
    let any = false;
    const wanted = new Uint8Array(values.length);
    for (let code = 1; code < values.length; code++) {
      if (codeKeys[code] === key) {
        wanted[code] = 1;
        any = true;
      }
    }
    if (!any) return undefined;
    const codes = column.codes;
    const live = this.store.live;
    for (let rowId = this.store.maxRowId; rowId > 0; rowId--) if (live[rowId] && wanted[codes[rowId]!]) return rowId;
    return undefined;
  }

  keyOf(values: readonly StoredValue[]): IndexKey | null {
    return indexKey(values, this.types);
  }

  keyOfRow(rowId: number): IndexKey | null {
    return this.keyOf(this.columns.map((id) => this.store.column(id)!.valueOf(rowId)));
  }

  rowOf(key: IndexKey): number | undefined {
    if (!this.rows && this.columns.length === 1 && this.scans++ < SCANS_BEFORE_INDEX) return this.scan(key);
    return this.index().get(key);
  }

  /** A committed entry, before the column store applies it (old keys are read from it). */
  update(entry: JournalEntry): void {
    // Without the map, scans read the store itself, which the entry is about to change.
    const rows = this.rows;
    if (!rows) return;
    for (const op of entry.ops) {
      switch (op.t) {
        case 'put': {
          const key = this.keyOf(this.columns.map((id) => op.v[id] ?? null));
          if (key !== null) rows.set(key, op.id);
          break;
        }
        case 'set': {
          if (!this.columns.some((id) => id in op.v)) break;
          const old = this.keyOfRow(op.id);
          if (old !== null && rows.get(old) === op.id) rows.delete(old);
          const key = this.keyOf(this.columns.map((id) => (id in op.v ? op.v[id]! : this.store.column(id)!.valueOf(op.id))));
          if (key !== null) rows.set(key, op.id);
          break;
        }
        case 'del':
          for (const id of op.ids) {
            const old = this.keyOfRow(id);
            if (old !== null && rows.get(old) === id) rows.delete(old);
          }
          break;
        case 'truncate':
          rows.clear();
          break;
      }
    }
  }
}

/** SQLite's unique-constraint failure, as PostgreSQL words it (naming CKAN's index name). */
export function duplicateKey(uniqueIndex: string, row: number): ValidationError {
  return new ValidationError({ records: [`duplicate key value violates unique constraint "${uniqueIndex}"`], records_row: row });
}

/**
 * One write request's view of its table while its records are checked: the committed column
 * store with the request's earlier operations on top, so that a later record finds a row an
 * earlier one inserted (as inside SQLite's transaction). `apply` checks an operation and
 * records it; nothing reaches the store until the entry is journalled (write-transaction.ts).
 */
export class WriteState {
  /** Rows changed by this request: their values now, or null once deleted. */
  private readonly changed = new Map<number, Map<string, StoredValue> | null>();
  /** The keys of the changed rows: a later record finds an earlier one's row in one lookup. */
  private readonly changedKeys = new Map<IndexKey, number>();
  private readonly keyOfChanged = new Map<number, IndexKey>();
  private truncated = false;
  private highest: number;

  constructor(
    private readonly store: TableStore,
    private readonly keys: KeyIndex | null,
    private readonly uniqueIndex: string,
  ) {
    this.highest = store.maxRowId;
  }

  /** The next `_id` (AUTOINCREMENT: never one of a deleted row). */
  nextId(): number {
    return ++this.highest;
  }

  /** Whether row `id` exists now. */
  exists(id: number): boolean {
    if (this.changed.has(id)) return this.changed.get(id) !== null;
    return !this.truncated && this.store.isLive(id);
  }

  /** The row whose key is `values`, or null (a key with a NULL part finds nothing). */
  findByKey(values: readonly StoredValue[]): number | null {
    const keys = this.keys;
    if (!keys) return null;
    const key = keys.keyOf(values);
    if (key === null) return null;
    const changed = this.changedKeys.get(key);
    if (changed !== undefined) return changed;
    const id = this.truncated ? undefined : keys.rowOf(key);
    return id !== undefined && !this.changed.has(id) ? id : null;
  }

  /** Checks one operation (request row `row`, for errors) and records it. */
  apply(op: JournalOp, row: number): void {
    switch (op.t) {
      case 'put': {
        const values = new Map(Object.entries(op.v));
        this.checkKey(values, op.id, row);
        this.record(op.id, values);
        if (op.id > this.highest) this.highest = op.id;
        break;
      }
      case 'set': {
        const values = this.rowValues(op.id);
        for (const [k, v] of Object.entries(op.v)) values.set(k, v);
        if (this.keys && this.keys.columns.some((c) => c in op.v)) this.checkKey(values, op.id, row);
        this.record(op.id, values);
        break;
      }
      case 'del':
        for (const id of op.ids) this.record(id, null);
        break;
      case 'truncate':
        this.truncated = true;
        for (const id of [...this.changed.keys()]) this.record(id, null);
        break;
    }
  }

  private record(id: number, values: Map<string, StoredValue> | null): void {
    this.changed.set(id, values);
    const old = this.keyOfChanged.get(id);
    if (old !== undefined && this.changedKeys.get(old) === id) this.changedKeys.delete(old);
    this.keyOfChanged.delete(id);
    const key = values && this.keys ? this.keys.keyOf(this.keys.columns.map((c) => values.get(c) ?? null)) : null;
    if (key !== null) {
      this.changedKeys.set(key, id);
      this.keyOfChanged.set(id, key);
    }
  }

  private rowValues(id: number): Map<string, StoredValue> {
    const pending = this.changed.get(id);
    if (pending) return new Map(pending);
    return this.store.rowValues(id);
  }

  private checkKey(values: ReadonlyMap<string, StoredValue>, id: number, row: number): void {
    if (!this.keys) return;
    const found = this.findByKey(this.keys.columns.map((c) => values.get(c) ?? null));
    if (found !== null && found !== id) throw duplicateKey(this.uniqueIndex, row);
  }
}
