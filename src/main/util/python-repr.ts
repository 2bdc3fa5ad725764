import { pythonFloatRepr } from './python-text';

/**
 * Python's `repr` of a decoded JSON value, for the wording of CKAN's errors that print one
 * (`Request data JSON decoded to [1, 2] but it needs to be a dictionary.`, `The field
 * "['nope']" is not a valid column name.`, `key "{'val_1': 'x'}" not found`).
 */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return numberRepr(value);
  if (typeof value === 'bigint') return String(value);
  if (value instanceof Number) return pythonFloatRepr(value.valueOf()); // a request's `310.0`
  if (typeof value === 'string') return stringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const items = Object.entries(value).map(([k, v]) => `${stringRepr(k)}: ${pythonRepr(v)}`);
    return `{${items.join(', ')}}`;
  }
  return stringRepr(String(value));
}

/** JSON numbers decode to int when whole, float otherwise; repr(inf) is `inf` in Python. */
function numberRepr(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'nan' : n > 0 ? 'inf' : '-inf';
  return pythonFloatRepr(n);
}

/** Python picks single quotes unless the text holds a single quote and no double quote. */
function stringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
    else out += ch;
  }
  return out + quote;
}
