import { pythonFloatRepr } from '../../util/python-text';
import { JsonNumber, JsonObject, type OrderedJson } from './ordered-json';

/**
 * Decoded JSON values written back out the way CKAN's Python code does: its dump decodes
 * each page of records and writes them with simplejson (`ensure_ascii=False`, compact
 * separators) or with `str()` for XML (docs/ckan-contract.md §11).
 */

/** A JSON number after Python decoded it: ints keep every digit, the rest become floats. */
export function pythonNumberText(n: JsonNumber): string {
  return n.isInteger ? n.text.replace(/^-0$/, '0') : pythonFloatRepr(Number(n.text));
}

/**
 * `simplejson.dumps(value, ensure_ascii=False, separators=(',', ':'))`. JSON.stringify
 * escapes strings exactly as simplejson does in that mode (quote, backslash, the short
 * escapes, other control characters as lower-case `\u00xx`, nothing else).
 */
export function pythonJson(value: OrderedJson): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof JsonNumber) return pythonNumberText(value);
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${pythonJson(v)}`).join(',')}}`;
  }
  return `[${value.map(pythonJson).join(',')}]`;
}

/** Python's `str()` of a decoded scalar (`True`, `2.5`, `None` is handled by the caller). */
export function pythonStr(value: boolean | string | JsonNumber): string {
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'string') return value;
  return pythonNumberText(value);
}
