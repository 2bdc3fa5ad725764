import { foldText } from '../../../shared/fold-text';
import type { Column } from '../column-store/column';
import type { StorageKind } from '../field-types';
import type { StoredValue } from '../values/coerce';
import type { DeskstoreOperator } from './filters';
import { invalidQuery } from './invalid-query';

/**
 * Truth tables (one byte per dictionary code, code 0 = NULL) for Deskstore's own filter
 * operators (docs/views.md, "Conditions"). Like every other filter they are evaluated once
 * per distinct value, so a condition over a million rows costs one pass over the dictionary
 * and one scan of the codes.
 */

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Case and accents ignored; ASCII text (most values) skips Unicode normalisation. */
function fold(text: string): string {
  return PRINTABLE_ASCII.test(text) ? text.toLowerCase() : foldText(text);
}

/** A value as records show it: what `contains` and `starts with` look into. */
export function valueText(value: StoredValue, storage: StorageKind): string {
  if (value === null) return '';
  if (typeof value === 'number') return storage === 'bool' ? (value ? 'true' : 'false') : String(value);
  return storage === 'timestamp' ? value.slice(0, 19) : value;
}

/** NULL, or the empty string in a text column: what "empty" means to a person. */
export function isEmptyValue(value: StoredValue, storage: StorageKind): boolean {
  return value === null || (storage === 'text' && value === '');
}

function textMatch(column: Column, op: 'deskstore_contains' | 'deskstore_starts_with', needle: string): Uint8Array {
  const storage = column.type.storage;
  if (storage === 'json' || storage === 'array') {
    throw invalidQuery(`${op} is not supported on ${column.type.name} column "${column.id}"`, `"${column.id}"`, [needle]);
  }
  const wanted = fold(needle);
  const test = op === 'deskstore_contains' ? (text: string) => text.includes(wanted) : (text: string) => text.startsWith(wanted);
  return column.truthTable((v) => test(fold(valueText(v, storage))));
}

/** `deskstore_ne`: SQL's `<>`, so NULL (unknown) matches neither `=` nor `≠`. */
function notEqual(column: Column, stored: StoredValue): Uint8Array {
  const table = new Uint8Array(column.values.length);
  if (stored === null) return table;
  table.fill(1, 1);
  for (const code of column.codesOf(stored)) table[code] = 0;
  return table;
}

function emptiness(column: Column, wanted: boolean): Uint8Array {
  const storage = column.type.storage;
  const table = column.truthTable((v) => isEmptyValue(v, storage) === wanted);
  table[0] = wanted ? 1 : 0;
  return table;
}

/**
 * The truth table of one Deskstore operator on a column. `coerce` turns the request's
 * value into the column's stored form (only `deskstore_ne` compares typed values).
 */
export function deskstoreOperatorTable(
  column: Column,
  op: DeskstoreOperator,
  value: unknown,
  coerce: (v: unknown) => StoredValue,
): Uint8Array {
  switch (op) {
    case 'deskstore_ne':
      return notEqual(column, value === null ? null : coerce(value));
    case 'deskstore_empty':
      return emptiness(column, value === true);
    case 'deskstore_contains':
    case 'deskstore_starts_with':
      return textMatch(column, op, value as string);
  }
}

/** The same operators on `_id` (a row number is never empty and never text). */
export function deskstoreIdTest(op: DeskstoreOperator, value: unknown, toId: (v: unknown) => number | null): (rowId: number) => boolean {
  switch (op) {
    case 'deskstore_ne': {
      const id = toId(value);
      return id === null ? () => false : (rowId) => rowId !== id;
    }
    case 'deskstore_empty':
      return value === true ? () => false : () => true;
    default: {
      const needle = String(value);
      return op === 'deskstore_contains' ? (rowId) => String(rowId).includes(needle) : (rowId) => String(rowId).startsWith(needle);
    }
  }
}
