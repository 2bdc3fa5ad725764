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
  inference.absorb(raw.spilledInference); // values that left with their chunks, observed as they went
  return inference.result(decimalComma);
}

/** The reason a forced type is given. */
export const FORCED_REASON: Message = message('import.type.forced', 'chosen by the user');

/** The reason a type the file gives (file-types.ts) is taken. */
export function fromFileReason(type: ImportType): Message {
  return message('import.type.from_file', `the file says so: its cells are typed ${type}`, { type });
}

/**
 * A column's type and why: the user's choice, else the type the file itself gives the column
 * (a spreadsheet's cells, file-types.ts), else the one inferred from its text. `given` is the
 * type every value is read as when it was not inferred (typedParts, converterFor).
 */
export interface TypeDecision {
  readonly type: ImportType;
  readonly reason: Message;
  readonly given: ImportType | undefined;
  /** The user chose it. */
  readonly forced: boolean;
}

export function decideType(inferred: InferredColumn, forced: ImportType | undefined, fromFile: ImportType | undefined): TypeDecision {
  if (forced) return { type: forced, reason: FORCED_REASON, given: forced, forced: true };
  if (fromFile) return { type: fromFile, reason: fromFileReason(fromFile), given: fromFile, forced: false };
  return { type: inferred.type, reason: inferred.reason, given: undefined, forced: false };
}

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

/**
 * A column's typed dictionary as far as it is in memory, and how to type the rest: `remap`
 * turns raw codes into typed ones where two raw texts became one value (`1.0` and `1`); a
 * column of mostly unique values keeps its codes, each entry typed in place (no deduplication,
 * see Column.mayRepeat), and `convert` types the values it spilled (raw-columns.ts) as they
 * are read back.
 */
export interface TypedParts {
  readonly type: ImportType;
  /** index = code, [0] the NULL slot. */
  readonly dictionary: StoredValue[];
  readonly remap: Uint32Array | null;
  readonly mayRepeat: boolean;
  readonly convert: (text: string) => StoredValue;
}

/** How a column's raw texts become its stored values (the user's type, or the inferred one). */
export function converterFor(id: string, inferred: InferredColumn, forced: ImportType | undefined): (text: string) => StoredValue {
  const type = forced ?? inferred.type;
  if (type === 'text') return (text) => text;
  const parse = forced ? (text: string) => parseAs(forced, text) : parserFor(inferred);
  return (text: string): StoredValue => {
    try {
      return stored(parse(text));
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
}

export function typedParts(id: string, raw: RawColumnBuilder, inferred: InferredColumn, forced: ImportType | undefined): TypedParts {
  const type = forced ?? inferred.type;
  const convert = converterFor(id, inferred, forced);
  if (type === 'text') {
    // Text keeps the raw dictionary as it is: no second million-entry lookup table.
    const values: (string | null)[] = raw.values;
    values[0] = null;
    return { type, dictionary: values, remap: null, mayRepeat: raw.mayRepeat, convert };
  }
  if (raw.mayRepeat) {
    const values: StoredValue[] = new Array(raw.values.length);
    values[0] = null;
    for (let code = 1; code < raw.values.length; code++) values[code] = convert(raw.values[code]!);
    return { type, dictionary: values, remap: null, mayRepeat: true, convert };
  }
  const column = Column.empty(id, fieldTypeOf(type), 0);
  const remap = new Uint32Array(raw.values.length);
  for (let code = 1; code < raw.values.length; code++) remap[code] = column.intern(convert(raw.values[code]!));
  return { type, dictionary: column.values, remap, mayRepeat: false, convert };
}

/** A column read whole in memory (no spill): its typed Column. */
export function typedColumn(
  id: string,
  raw: RawColumnBuilder,
  inferred: InferredColumn,
  forced: ImportType | undefined,
  rows: number,
): Column {
  const parts = typedParts(id, raw, inferred, forced);
  const codes = raw.codes.length === rows + 1 ? raw.codes : raw.codes.slice(0, rows + 1);
  if (parts.remap) for (let r = 1; r <= rows; r++) codes[r] = parts.remap[codes[r]!]!;
  return new Column(id, fieldTypeOf(parts.type), parts.dictionary, codes, parts.mayRepeat);
}
