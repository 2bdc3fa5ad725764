import type { ImportType } from '../../shared/wire/import';

/**
 * The types a file gives its own columns, so they are not guessed again from text
 * (docs/importing.md, "Types"). A spreadsheet cell says what it holds: a number, a date (or date
 * and time), a boolean, or text; a future Parquet or database file has a schema. A reader
 * reports each cell's kind here as it hands its canonical text to the RowCollector, and the
 * table it returns carries, per column, the type every value of the column agreed on. A column
 * that mixes kinds, or holds text (spreadsheets often keep numbers typed as text), is left to
 * type inference.
 */
export type CellKind = 'number' | 'date' | 'bool' | 'text';

const INT4_MAX = 2_147_483_647n;
const INT8_MAX = 9_223_372_036_854_775_807n;

/** The narrowest type that holds one value of a kind, or null when the text is not that kind's canonical form. */
function typeOfValue(kind: CellKind, text: string): ImportType | null {
  switch (kind) {
    case 'number': {
      if (/^-?\d+$/.test(text)) {
        const n = BigInt(text);
        const magnitude = n < 0n ? -n : n;
        return magnitude <= INT4_MAX ? 'int4' : magnitude <= INT8_MAX ? 'int8' : 'numeric';
      }
      return /^-?\d+\.\d+$/.test(text) ? 'numeric' : null;
    }
    case 'date':
      if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return 'date';
      return /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? 'timestamp' : null;
    case 'bool':
      return text === 'true' || text === 'false' ? 'bool' : null;
    case 'text':
      return null;
  }
}

/** Two values' types as one column's: the wider of the same family, or null across families. */
function widen(a: ImportType, b: ImportType): ImportType | null {
  if (a === b) return a;
  const numbers: readonly ImportType[] = ['int4', 'int8', 'numeric'];
  if (numbers.includes(a) && numbers.includes(b)) return numbers[Math.max(numbers.indexOf(a), numbers.indexOf(b))]!;
  const dates: readonly ImportType[] = ['date', 'timestamp'];
  return dates.includes(a) && dates.includes(b) ? 'timestamp' : null;
}

/** Collects, column by column, the type the file's own cells give. */
export class FileColumnTypes {
  /** undefined: no value yet; null: kinds disagree (inference decides). */
  private readonly columns: (ImportType | null | undefined)[] = [];

  /** One non-empty cell of `column`, of the kind the file says, as its canonical text. */
  observe(column: number, kind: CellKind | undefined, text: string): void {
    const seen = this.columns[column];
    if (seen === null) return;
    const type = kind === undefined ? null : typeOfValue(kind, text);
    this.columns[column] = type === null ? null : seen === undefined ? type : widen(seen, type);
  }

  /** The type of each of the first `width` columns, undefined where the file does not say one. */
  types(width: number): (ImportType | undefined)[] {
    return Array.from({ length: width }, (_, i) => this.columns[i] ?? undefined);
  }
}
