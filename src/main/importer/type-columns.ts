import { Column, fieldTypeOf } from '../engine/importer-api';
import type { StoredValue } from '../engine/engine-api';
import { message, type Message } from '../../shared/messages';
import type { ImportType } from '../../shared/wire/import';
import { ImportInputError } from './import-errors';
import type { RawColumnBuilder } from './raw-columns';
import { ColumnTypeInference, type InferredColumn } from './type-inference';
import { parseAs, parserFor, quote, ValueParseError, type ParsedValue } from './value-parsers';

/**
 * Turns the raw dictionary of a column into a typed Column: infer the type from the distinct
 * values (or take the user's), convert each distinct value once, and remap the cell codes
 * (two raw texts can become one value: `1.0` and `1`).
 */

export function inferColumn(raw: RawColumnBuilder, decimalComma: boolean): InferredColumn {
  const inference = new ColumnTypeInference({ decimalComma });
  inference.observe('', raw.counts[0]);
  for (let code = 1; code < raw.values.length; code++) inference.observe(raw.values[code]!, raw.counts[code]);
  return inference.result();
}

/** The reason a forced type is given. */
export const FORCED_REASON: Message = message('import.type.forced', 'chosen by the user');

/** The first of a raw column's values that `type` cannot read, as the preview reports it. */
export function forcedTypeProblem(raw: RawColumnBuilder, type: ImportType): Message | undefined {
  for (let code = 1; code < raw.values.length; code++) {
    const value = raw.values[code]!;
    try {
      parseAs(type, value);
    } catch {
      return message('import.type.forced_problem', `${quote(value)} is not a valid ${type}`, { value, type });
    }
  }
  return undefined;
}

function stored(value: ParsedValue): StoredValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/** A forced type that some value does not fit: the import stops and says which value. */
export class ForcedTypeError extends ImportInputError {}

export function typedColumn(
  id: string,
  raw: RawColumnBuilder,
  inferred: InferredColumn,
  forced: ImportType | undefined,
  rows: number,
): Column {
  const type = forced ?? inferred.type;
  const codes = raw.codes.length === rows + 1 ? raw.codes : raw.codes.slice(0, rows + 1);
  if (type === 'text') {
    // Text keeps the raw dictionary as it is: no second million-entry lookup table.
    const values: (string | null)[] = raw.values;
    values[0] = null;
    return new Column(id, fieldTypeOf('text'), values, codes, raw.mayRepeat);
  }
  const parse = forced ? (text: string) => parseAs(forced, text) : parserFor(inferred);
  const convert = (code: number): StoredValue => {
    try {
      return stored(parse(raw.values[code]!));
    } catch (err) {
      if (err instanceof ValueParseError) {
        throw new ForcedTypeError(
          message('import.refused.forced_type', `Column "${id}" cannot be ${type}: ${err.message}`, {
            column: id,
            type,
            value: quote(err.value),
          }),
        );
      }
      throw err;
    }
  };
  if (raw.mayRepeat) {
    // Mostly unique values: convert each entry in place, no deduplication (see Column.mayRepeat).
    const values: StoredValue[] = new Array(raw.values.length);
    values[0] = null;
    for (let code = 1; code < raw.values.length; code++) values[code] = convert(code);
    return new Column(id, fieldTypeOf(type), values, codes, true);
  }
  const column = Column.empty(id, fieldTypeOf(type), 0);
  const remap = new Uint32Array(raw.values.length);
  for (let code = 1; code < raw.values.length; code++) remap[code] = column.intern(convert(code));
  for (let r = 1; r <= rows; r++) codes[r] = remap[codes[r]!]!;
  return new Column(id, column.type, column.values, codes);
}
