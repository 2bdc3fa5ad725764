import type { StoredValue } from '../values/coerce';

/**
 * A number column's dictionary as it lies in the columns file: one double per code (code 0,
 * NULL, has none). A freshly loaded resource answers from this form; it becomes a JavaScript
 * array only when something scans it (a filter, a sort, a write). Building that array up
 * front cost a restarted server about a second and 240 MB for a column of ten million
 * distinct numbers (an id) before its first answer.
 */
export class F64Dictionary {
  constructor(private readonly numbers: Float64Array) {}

  /** Entries, the NULL slot included (as a dictionary array's length). */
  get size(): number {
    return this.numbers.length + 1;
  }

  /** The doubles as read (`doubles[code - 1]`); read-only for callers. */
  get doubles(): Float64Array {
    return this.numbers;
  }

  get byteLength(): number {
    return this.numbers.byteLength;
  }

  valueAt(code: number): StoredValue {
    return code === 0 ? null : this.numbers[code - 1]!;
  }

  /** The first code holding `value`, 0 when none (a text is never here). */
  codeOf(value: string | number): number {
    if (typeof value !== 'number') return 0;
    const numbers = this.numbers;
    for (let i = 0; i < numbers.length; i++) if (numbers[i] === value) return i + 1;
    return 0;
  }

  materialize(): StoredValue[] {
    const values = new Array<StoredValue>(this.numbers.length + 1);
    values[0] = null;
    for (let i = 0; i < this.numbers.length; i++) values[i + 1] = this.numbers[i]!;
    return values;
  }
}
