import { Column, type LazyCodes } from '../column-store/column';
import { F64Dictionary } from '../column-store/f64-dictionary';
import { Utf8Dictionary, type LazyBytes } from '../column-store/utf8-dictionary';
import { TableStore } from '../column-store/table-store';
import { fieldTypeOf, isStoredAsNumber } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { CorruptContainerError, uint32View } from './binary-container';

/**
 * The column store as container sections: per column, its dictionary and its codes; plus the
 * live-row bitmap.
 *
 * Dictionaries of numbers are a Float64Array (`f64`). Dictionaries of strings (numeric/int8
 * columns: strings and numbers) are `utf8`: where each value ends (Uint32Array) in
 * `dictionarySection`, the UTF-8 bytes in `textSection` and, for numeric columns, which
 * entries are numbers in `numberSection`, so that a loaded resource decodes a value only when
 * it is used (column-store/utf8-dictionary.ts). Anything else (arrays, JSON values, texts with
 * lone surrogates) is one JSON array (`json`) or, when it holds many values, consecutive JSON
 * arrays in further sections (`json-chunks`, `moreSections`): V8 cannot build or read a string
 * past ~512 MB. Files written before the `utf8` form read as before.
 */
export interface ColumnsHeader {
  readonly maxRowId: number;
  readonly columns: readonly {
    id: string;
    type: string;
    dictionary: 'f64' | 'json' | 'json-chunks' | 'utf8';
    dictionarySection: number;
    /** `utf8`: the section holding the values' bytes. */
    textSection?: number;
    /** `utf8` of a numeric/int8 column: which entries are numbers (one byte each). */
    numberSection?: number;
    /** `json-chunks`: the sections holding the rest of the dictionary, in order. */
    moreSections?: number[];
    codesSection: number;
    mayRepeat?: boolean;
  }[];
  readonly liveSection: number;
}

export function encodeColumns(store: TableStore, sections: Uint8Array[]): ColumnsHeader {
  const add = (bytes: Uint8Array): number => sections.push(bytes) - 1;
  const size = store.maxRowId + 1;
  const columns = store.columns.map((c) => {
    // numeric/int8 dictionaries are doubles too unless some value needs its exact text
    // (`2.50`, an int8 beyond 2^53): then the JSON form keeps numbers and texts alike.
    const numeric = isStoredAsNumber(c.type.storage) || (c.type.storage === 'exact' && allNumbers(c.values));
    // Text dictionaries keep their NULL slot in the JSON so that a small one loads with one JSON.parse.
    let more: number[] = [];
    let dictionarySection: number;
    let textSection: number | undefined;
    let numberSection: number | undefined;
    const utf8 = numeric ? null : Utf8Dictionary.encode(c.values, c.type.storage === 'exact');
    if (numeric) dictionarySection = add(new Uint8Array(Float64Array.from(c.values.slice(1) as number[]).buffer));
    else if (utf8) {
      dictionarySection = add(new Uint8Array(utf8.ends.buffer, utf8.ends.byteOffset, utf8.ends.byteLength));
      textSection = add(utf8.bytes);
      if (utf8.numbers) numberSection = add(utf8.numbers);
    } else {
      const chunks = [];
      for (let start = 0; start < c.values.length; start += DICTIONARY_CHUNK)
        chunks.push(add(Buffer.from(JSON.stringify(c.values.slice(start, start + DICTIONARY_CHUNK)))));
      [dictionarySection, ...more] = chunks as [number, ...number[]];
    }
    const codes = c.codesAsUint32(size);
    const codesSection = add(new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength));
    return {
      id: c.id,
      type: c.type.name,
      dictionary: numeric ? ('f64' as const) : utf8 ? ('utf8' as const) : more.length ? ('json-chunks' as const) : ('json' as const),
      dictionarySection,
      ...(textSection !== undefined ? { textSection } : {}),
      ...(numberSection !== undefined ? { numberSection } : {}),
      ...(more.length ? { moreSections: more } : {}),
      codesSection,
      ...(c.mayRepeat ? { mayRepeat: true } : {}),
    };
  });
  const liveSection = add(store.live.subarray(0, size));
  return { maxRowId: store.maxRowId, columns, liveSection };
}

/** Values per JSON chunk of a text dictionary: far below V8's string limit even for long texts. */
export const DICTIONARY_CHUNK = 1_000_000;

function allNumbers(values: readonly StoredValue[]): boolean {
  for (let i = 1; i < values.length; i++) if (typeof values[i] !== 'number') return false;
  return true;
}

/**
 * Where decodeColumns finds sections: in memory, or in the file (file-sections.ts), where a
 * text dictionary's bytes stay until its cells are used.
 */
export interface ColumnSections {
  whole(index: number): Uint8Array;
  lazy(index: number): Uint8Array | LazyBytes;
  /** A column's codes (`count` of them), or where to read them when asked for. */
  codes?(index: number, count: number): Uint32Array | LazyCodes;
}

function inMemory(sections: readonly Uint8Array[]): ColumnSections {
  const whole = (i: number): Uint8Array => {
    const s = sections[i];
    if (!s) throw new CorruptContainerError(`columns file lacks section ${i}`);
    return s;
  };
  return { whole, lazy: whole };
}

export function decodeColumns(header: ColumnsHeader, from: readonly Uint8Array[] | ColumnSections): TableStore {
  const sections = Array.isArray(from) ? inMemory(from) : (from as ColumnSections);
  const section = (i: number): Uint8Array => sections.whole(i);
  const size = header.maxRowId + 1;
  const columns = header.columns.map((c) => {
    const dict = section(c.dictionarySection);
    let values: StoredValue[] | Utf8Dictionary | F64Dictionary;
    if (c.dictionary === 'utf8') {
      const numbers = c.numberSection === undefined ? null : section(c.numberSection);
      const checked = Utf8Dictionary.checked(uint32View(dict), sections.lazy(c.textSection ?? -1), numbers);
      if (typeof checked === 'string') throw new CorruptContainerError(`column ${c.id}: ${checked}`);
      values = checked;
    } else if (c.dictionary === 'f64') {
      const numbers =
        dict.byteOffset % 8 === 0
          ? new Float64Array(dict.buffer, dict.byteOffset, dict.byteLength / 8)
          : new Float64Array(dict.buffer.slice(dict.byteOffset, dict.byteOffset + dict.byteLength));
      values = new F64Dictionary(numbers);
    } else {
      const parse = (bytes: Uint8Array) =>
        JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as StoredValue[];
      values = parse(dict);
      if (c.dictionary === 'json-chunks') {
        for (const more of c.moreSections ?? []) {
          for (const value of parse(section(more))) values.push(value);
        }
      }
      if (values[0] !== null) throw new CorruptContainerError(`column ${c.id} dictionary lacks its NULL slot`);
    }
    // A view, not a copy: the section was read for this column alone (or the file buffer stays
    // in memory anyway), and the store replaces the array when a write grows it.
    const codes = sections.codes ? sections.codes(c.codesSection, size) : uint32View(section(c.codesSection));
    if (codes.length !== size) throw new CorruptContainerError(`column ${c.id} has ${codes.length} codes for ${size} rows`);
    return new Column(c.id, fieldTypeOf(c.type), values, codes, c.mayRepeat ?? false);
  });
  const live = section(header.liveSection);
  if (live.length !== size) throw new CorruptContainerError('live-row bitmap has the wrong size');
  return new TableStore(columns, live, header.maxRowId);
}
