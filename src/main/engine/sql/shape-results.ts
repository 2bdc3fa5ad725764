import { pythonAsciiJsonString, pythonDecimalText, pythonJsonText } from '../../util/python-text';
import { exactText } from '../values/exact-number';
import { SqlQueryError } from './sql-errors';
import { tsvectorText } from './full-text-values';
import { FLOAT_TYPES, INTEGER_TYPES, integerText, isoformat, numericValue, pythonFloatText, timestampParts } from './sql-values';

/**
 * Rows of a translated query as CKAN 2.11 answers datastore_search_sql (docs/ckan-contract.md §4): each
 * value converted as CKAN's `convert()` and written by its JSON encoder (simplejson): numeric
 * as `str(Decimal)` (`2.50`, `1E-7`), int8 every digit, float8 as Python writes floats
 * (`1.0`), timestamps by `isoformat()`, json columns decoded, arrays as lists, tsvector as
 * text, with json.dumps's spacing and `\uXXXX` escapes (seen on CKAN 2.10.10). Records are
 * objects keyed by column name: a repeated name keeps its first place and its last value, as
 * Python's dict does; `fields` lists every column.
 */
export interface ShapedColumn {
  readonly name: string;
  readonly type: string;
  /** A json column of a table (CKAN's `nested`): decoded; other json values stay text. */
  readonly nested?: boolean;
}

export function jsonValue(value: unknown, column: ShapedColumn): string {
  if (value === null || value === undefined) return 'null';
  const type = column.type;
  if (INTEGER_TYPES.has(type)) return integerText(checkedInteger(value, type));
  if (type === 'numeric') {
    const n = numericValue(value);
    return n === null ? pythonAsciiJsonString(String(value)) : pythonDecimalText(exactText(n));
  }
  if (FLOAT_TYPES.has(type)) {
    const n = Number(value);
    return Number.isFinite(n) ? pythonFloatText(n) : pythonAsciiJsonString(pythonFloatText(n));
  }
  if (type === 'bool') return Number(value) ? 'true' : 'false';
  if (type === 'timestamp' || type === 'timestamptz') {
    const t = timestampParts(value);
    return pythonAsciiJsonString(t ? isoformat(t, type === 'timestamptz') : String(value));
  }
  if (type === 'date') return pythonAsciiJsonString(String(value).slice(0, 10));
  if (type === 'time') return pythonAsciiJsonString(String(value).replace(/\.(\d+)$/, (_, f: string) => `.${f.padEnd(6, '0')}`));
  if (type === 'tsvector') return pythonAsciiJsonString(tsvectorText(String(value)));
  if ((type === 'json' && column.nested) || type.startsWith('_')) {
    try {
      JSON.parse(String(value));
      return pythonJsonText(String(value));
    } catch {
      return pythonAsciiJsonString(String(value));
    }
  }
  if (value instanceof Uint8Array) return pythonAsciiJsonString(Buffer.from(value).toString('utf8'));
  return pythonAsciiJsonString(typeof value === 'bigint' ? value.toString() : String(value));
}

const INTEGER_LIMITS: Record<string, [bigint, bigint, string]> = {
  int2: [-32768n, 32767n, 'smallint'],
  int4: [-2147483648n, 2147483647n, 'integer'],
  int8: [-9223372036854775808n, 9223372036854775807n, 'bigint'],
};

/**
 * SQLite's integer arithmetic goes to 64 bits and then silently to a REAL; PostgreSQL stops
 * at the type's range. A result outside it is PostgreSQL's error, not a rounded number.
 */
function checkedInteger(value: unknown, type: string): unknown {
  const [lo, hi, name] = INTEGER_LIMITS[type]!;
  let n: bigint | null;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') n = Number.isSafeInteger(value) ? BigInt(value) : null;
  else return value;
  if (n === null || n < lo || n > hi) throw new SqlQueryError(`${name} out of range`);
  return n;
}

/** The answer grew past the writer's byte limit. */
export class ResultTooLarge extends Error {}

/**
 * The `records` member as UTF-8 JSON, written row by row into chunks of about CHUNK_CHARS, so
 * that neither the rows nor the text are ever held whole as JavaScript values, and counted in
 * bytes as written: past `maxBytes` it throws ResultTooLarge. The chunks are what the SQL
 * worker hands over (transferred, not copied) and the server writes to the socket one by one.
 */
export class RecordsJsonWriter {
  private readonly keys: readonly { key: string; index: number }[];
  private readonly chunks: Uint8Array[] = [];
  private pending = '[';
  private bytes = 0;
  private rows = 0;

  constructor(
    private readonly columns: readonly ShapedColumn[],
    private readonly maxBytes: number,
  ) {
    // One key per name, in the order names first appear, holding the last column of that name.
    const lastIndex = new Map<string, number>();
    columns.forEach((c, i) => lastIndex.set(c.name, i));
    this.keys = [...lastIndex].map(([name, index]) => ({ key: `${pythonAsciiJsonString(name)}: `, index }));
  }

  add(row: readonly unknown[]): void {
    const fields = this.keys.map(({ key, index }) => key + jsonValue(row[index], this.columns[index]!));
    // Python's json.dumps of the list of dicts CKAN builds: `", "` and `": "` between items.
    this.pending += `${this.rows++ ? ', ' : ''}{${fields.join(', ')}}`;
    // UTF-8 takes at least a byte per UTF-16 unit: past the limit in units is past it in bytes,
    // and flushing now stops a huge row before more are read.
    if (this.bytes + this.pending.length > this.maxBytes) this.flush();
    else if (this.pending.length >= CHUNK_CHARS) this.flush();
  }

  finish(): Uint8Array[] {
    this.pending += ']';
    this.flush();
    return this.chunks;
  }

  private flush(): void {
    const chunk = encoder.encode(this.pending); // its own buffer, so it can be transferred
    this.pending = '';
    this.bytes += chunk.byteLength;
    if (this.bytes > this.maxBytes) throw new ResultTooLarge();
    this.chunks.push(chunk);
  }
}

const encoder = new TextEncoder();
/** About 1 MB per chunk: few enough parts, small enough to let memory go as they are written. */
const CHUNK_CHARS = 1 << 20;
