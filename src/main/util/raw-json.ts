import { pythonAsciiJsonString, pythonFloatRepr, pythonNumber } from './python-text';

/**
 * A piece of JSON text that is already serialized (e.g. the records of a search, encoded by
 * the engine worker). `jsonBody` splices it in verbatim, so large results are not parsed and
 * re-serialized on the main thread, and values such as `2.50` keep their text. A big answer
 * (datastore_search_sql) comes as UTF-8 chunks, which are written to the socket one by one and
 * never joined into one string.
 */
export class RawJson {
  constructor(readonly text: string | readonly Uint8Array[]) {}
}

/** JSON text in order: strings and UTF-8 chunks. */
export type JsonParts = readonly (string | Uint8Array)[];

/**
 * `value` as JSON text, as CKAN's API writes it (Python's json.dumps defaults: `", "` and `": "`
 * between items, every character outside ASCII as `\uXXXX`, floats as Python prints them), with
 * RawJson spliced in verbatim (records PostgreSQL wrote compactly, on CKAN too): one string, or
 * parts when it holds chunked RawJson.
 */
export function jsonBody(value: unknown): string | JsonParts {
  const parts: (string | Uint8Array)[] = [];
  let text = '';
  const push = (s: string): void => {
    text += s;
  };
  const visit = (v: unknown): void => {
    if (v instanceof RawJson) {
      if (typeof v.text === 'string') push(v.text);
      else {
        if (text) parts.push(text);
        text = '';
        parts.push(...v.text);
      }
    } else if (typeof v === 'string') {
      push(pythonAsciiJsonString(v));
    } else if (typeof v === 'number') {
      push(Number.isFinite(v) ? pythonNumber(v) : 'null');
    } else if (typeof v === 'bigint') {
      push(String(v)); // an integer beyond 2^53 from a request, every digit
    } else if (v === null || typeof v !== 'object') {
      push(JSON.stringify(v) ?? 'null');
    } else if (v instanceof Number) {
      push(pythonFloatRepr(v.valueOf())); // a Python float from a request (`310.0`), echoed as CKAN does
    } else if (Array.isArray(v)) {
      push('[');
      v.forEach((item, i) => {
        if (i) push(', ');
        if (item === undefined) push('null');
        else visit(item);
      });
      push(']');
    } else {
      push('{');
      let first = true;
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined || typeof item === 'function') continue;
        push(`${first ? '' : ', '}${pythonAsciiJsonString(k)}: `);
        first = false;
        visit(item);
      }
      push('}');
    }
  };
  visit(value);
  if (parts.length === 0) return text;
  if (text) parts.push(text);
  return parts;
}
