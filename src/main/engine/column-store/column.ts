import type { FieldType } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { rankCodes } from './sort-order';

/**
 * One column of a resource, dictionary-encoded in memory: `codes[rowId]` is the index of the
 * row's value in `values` (0 = NULL). Every filter, sort and facet is evaluated over these
 * arrays; per distinct value first (a truth table over codes), then per row, which is what
 * makes a filter over a million rows cost about a millisecond.
 */
export class Column {
  /** Dictionary; values[0] is the NULL slot. Values are unique, in first-seen order. */
  readonly values: StoredValue[];
  private codeArray: Uint32Array;
  private lookup: Map<string | number, number> | null = null;
  private ranks: Uint32Array | null = null;

  constructor(readonly id: string, readonly type: FieldType, values: StoredValue[], codes: Uint32Array) {
    if (values.length === 0 || values[0] !== null) throw new Error('column dictionary must start with the NULL slot');
    this.values = values;
    this.codeArray = codes;
  }

  static empty(id: string, type: FieldType, capacity: number): Column {
    return new Column(id, type, [null], new Uint32Array(capacity));
  }

  get codes(): Uint32Array {
    return this.codeArray;
  }

  get distinctCount(): number {
    return this.values.length - 1;
  }

  valueOf(rowId: number): StoredValue {
    return this.values[this.codeArray[rowId]!]!;
  }

  /** The code of a stored value, or -1 when no row ever held it. */
  codeOf(value: StoredValue): number {
    if (value === null) return 0;
    return this.dictionary().get(value) ?? -1;
  }

  /** Writes one cell (append or update), adding the value to the dictionary when new. */
  set(rowId: number, value: StoredValue): void {
    this.ensureCapacity(rowId + 1);
    this.codeArray[rowId] = this.intern(value);
  }

  intern(value: StoredValue): number {
    if (value === null) return 0;
    const dict = this.dictionary();
    let code = dict.get(value);
    if (code === undefined) {
      code = this.values.length;
      this.values.push(value);
      dict.set(value, code);
      this.ranks = null; // a new value has no rank yet
    }
    return code;
  }

  ensureCapacity(size: number): void {
    if (size <= this.codeArray.length) return;
    const grown = new Uint32Array(Math.max(size, Math.ceil(this.codeArray.length * 1.5) + 1024));
    grown.set(this.codeArray);
    this.codeArray = grown;
  }

  /** code → sort rank in this column's type order (NULL = 0); computed on first use. */
  sortRanks(): Uint32Array {
    if (!this.ranks) this.ranks = rankCodes(this.values, this.type.storage, this.type.element?.storage);
    return this.ranks;
  }

  /** Evaluates `test` once per distinct value: the truth table a row scan then indexes by code. */
  truthTable(test: (value: StoredValue) => boolean): Uint8Array {
    const table = new Uint8Array(this.values.length);
    for (let code = 1; code < this.values.length; code++) table[code] = test(this.values[code]!) ? 1 : 0;
    return table;
  }

  private dictionary(): Map<string | number, number> {
    if (!this.lookup) {
      const map = new Map<string | number, number>();
      for (let code = 1; code < this.values.length; code++) map.set(this.values[code]!, code);
      this.lookup = map;
    }
    return this.lookup;
  }
}
