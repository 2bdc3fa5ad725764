/**
 * How Python writes numbers and strings, for the places where CKAN's output is Python's
 * text rather than PostgreSQL's: JSON stored by `json.dumps` (json columns) and the dump
 * files CKAN re-encodes (docs/ckan-contract.md §11).
 */

/**
 * Python's `repr(float)`: the shortest text that reads back as the same double, in fixed
 * notation with at least one decimal (`2.5`, `1000.0`, `0.0001`) unless the decimal
 * exponent is below -4 or at least 16 (`1e-05`, `1e+16`, `1.5e+300`).
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exp);
  if (exponent < -4 || exponent >= 16) {
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  let fixed: string;
  if (exponent < 0) fixed = `0.${'0'.repeat(-exponent - 1)}${digits}`;
  else if (digits.length > exponent + 1) fixed = `${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
  else fixed = `${digits}${'0'.repeat(exponent + 1 - digits.length)}.0`;
  return negative ? `-${fixed}` : fixed;
}

/** A JSON number as Python writes it after `json.loads`: an int when whole, else a float. */
export function pythonNumber(value: number): string {
  return Number.isInteger(value) && Math.abs(value) < 1e21 ? String(value) : pythonFloatRepr(value);
}

/**
 * A string as `json.dumps` writes it with its default `ensure_ascii=True`: every character
 * outside ASCII as `\uXXXX` (lower-case hex, astral characters as surrogate pairs).
 */
export function pythonAsciiJsonString(value: string): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Python's `str(Decimal(text))` for a numeric's canonical text (`310.00`, `-0.000100`), which
 * is how CKAN 2.11's JSON (simplejson, `use_decimal`) writes numeric results of
 * datastore_search_sql: as written, except that a value with more than five zeros after the
 * point before its first digit goes to scientific notation (`0.0000001` → `1E-7`,
 * `0.00000025` → `2.5E-7`, `0.00000000` → `0E-8`).
 */
export function pythonDecimalText(canonical: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(canonical);
  if (!m) return canonical; // NaN and the like: as PostgreSQL wrote them
  const [, sign, whole, fraction = ''] = m;
  const digits = (whole! + fraction).replace(/^0+(?=\d)/, '');
  const exponent = -fraction.length;
  const leftDigits = exponent + digits.length;
  if (leftDigits > -6) return canonical;
  // Scientific: one digit before the point (Decimal.__str__ with dotplace = 1).
  const rest = digits.slice(1);
  return `${sign}${digits[0]}${rest ? `.${rest}` : ''}E${leftDigits - 1}`;
}

/**
 * JSON text re-spaced as `json.dumps` writes it after `json.loads` (`", "` and `": "` between
 * items, every character outside ASCII as `\uXXXX`), without reading its numbers: `100.0` and
 * every digit of a big integer keep their text. Whitespace outside strings is dropped first, so
 * text that json.dumps already wrote comes out the same.
 */
export function pythonJsonText(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + json[++i]!;
      } else {
        if (c === '"') inString = false;
        const code = c.charCodeAt(0);
        out += code >= 0x7f ? `\\u${code.toString(16).padStart(4, '0')}` : c;
      }
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === ',') out += ', ';
    else if (c === ':') out += ': ';
    else if (c !== ' ' && c !== '\n' && c !== '\r' && c !== '\t') out += c;
  }
  return out;
}
