/**
 * Numbers a person types, read the way the UI's language writes them (`1,9` and `1.234,5` in
 * Italian, `1.9` and `1,234.5` in English). The symbols come from Intl.NumberFormat's locale
 * data (decimal sign, group separator, group sizes, digits, minus sign), never from the
 * browser's own locale, which is what `<input type="number">` follows. The result is the
 * number as exact decimal text (`1234.5`), the form filters, URLs and the API carry.
 *
 * Nothing is read silently as another number: the other convention's decimal sign (`1.9` in
 * Italian) is refused with the right spelling, and a lone group of three digits after a
 * separator (`1.234`: 1234 in Italian, 1.234 in English) is refused as ambiguous. Pure.
 */

export type NumberProblem = 'not_a_number' | 'decimal_sign' | 'ambiguous' | 'not_integer';

export type NumberReading =
  | { readonly kind: 'empty' }
  /** `value`: exact decimal text, `-1234.5` (no exponent, no group separators). */
  | { readonly kind: 'number'; readonly value: string }
  /** `readings`: what the text could mean, each written as the locale writes it (for the message). */
  | { readonly kind: 'invalid'; readonly problem: NumberProblem; readonly readings: readonly string[] };

interface Symbols {
  readonly decimal: string;
  readonly group: string;
  /** The group next to the decimal sign, and the ones before it (3 and 3; India: 3 and 2). */
  readonly primary: number;
  readonly secondary: number;
  readonly minus: string;
  /** The locale's digit characters → their value. */
  readonly digits: ReadonlyMap<string, string>;
}

const cache = new Map<string, Symbols>();

export function localeSymbols(locale: string): Symbols {
  const known = cache.get(locale);
  if (known) return known;
  const parts = new Intl.NumberFormat(locale, { useGrouping: 'always', minimumFractionDigits: 1 }).formatToParts(-1234567890.5);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const integers = parts.filter((p) => p.type === 'integer').map((p) => p.value.length);
  const plain = new Intl.NumberFormat(locale, { useGrouping: false });
  const digits = new Map<string, string>();
  for (let d = 0; d <= 9; d++) digits.set(plain.format(d), String(d));
  for (let d = 0; d <= 9; d++) digits.set(String(d), String(d));
  const symbols: Symbols = {
    decimal: part('decimal') || '.',
    group: part('group') || ',',
    primary: integers.at(-1) ?? 3,
    secondary: integers.length > 2 ? integers.at(-2)! : (integers.at(-1) ?? 3),
    minus: part('minusSign') || '-',
    digits,
  };
  cache.set(locale, symbols);
  return symbols;
}

/** Space-like group separators (French, Swiss): a plain space typed for one is the same. */
const SPACES = /[\s\u00a0\u202f]/;
const isSpace = (c: string) => SPACES.test(c);

type Read = { readonly value: string; readonly grouped: number } | null;

/**
 * `text` read with one decimal sign and one group separator: the exact decimal text, and how
 * many group separators it had; null when the text is not a number written that way.
 */
function readWith(text: string, decimal: string, group: string, s: Symbols, allowGroups: boolean): Read {
  let rest = text;
  let negative = false;
  const first = rest[0] ?? '';
  if (first === '-' || first === '+' || first === '\u2212' || first === s.minus) {
    negative = first !== '+';
    rest = rest.slice(1).trimStart();
  }
  const point = rest.indexOf(decimal);
  const whole = point < 0 ? rest : rest.slice(0, point);
  const fraction = point < 0 ? '' : rest.slice(point + decimal.length);
  const digitsOf = (chunk: string): string | null => {
    let out = '';
    for (const c of chunk) {
      const d = s.digits.get(c);
      if (d === undefined) return null;
      out += d;
    }
    return out;
  };
  const fractionDigits = digitsOf(fraction);
  if (fractionDigits === null) return null;
  const sameGroup = (c: string) => c === group || (isSpace(group) && isSpace(c));
  const groups: string[] = [''];
  for (const c of whole) {
    if (sameGroup(c)) groups.push('');
    else groups[groups.length - 1] += c;
  }
  if (groups.length > 1) {
    if (!allowGroups) return null;
    // 1.234.567: the first group 1 to `secondary` digits, the middle ones `secondary`, the last `primary`
    const [head, ...tail] = groups;
    const last = tail.at(-1)!;
    const middle = tail.slice(0, -1);
    if (!head || head.length > s.secondary || last.length !== s.primary || middle.some((g) => g.length !== s.secondary)) return null;
  }
  const wholeDigits = digitsOf(groups.join(''));
  if (wholeDigits === null || (wholeDigits === '' && fractionDigits === '')) return null;
  const integer = wholeDigits.replace(/^0+(?=\d)/, '') || '0';
  const body = fractionDigits ? `${integer}.${fractionDigits}` : integer;
  const zero = /^[0.]*$/.test(body);
  return { value: negative && !zero ? `-${body}` : body, grouped: groups.length - 1 };
}

/** The locale's spelling of an exact decimal text, without group separators (`1234.5` → `1234,5`). */
export function formatTypedNumber(value: string, locale: string): string {
  const s = localeSymbols(locale);
  const negative = value.startsWith('-');
  const [whole = '0', fraction] = (negative ? value.slice(1) : value).split('.');
  // the map holds the locale's digits first, then the ASCII ones: the first match is the locale's
  const digits = [...s.digits];
  const local = (chunk: string) => [...chunk].map((c) => digits.find(([, v]) => v === c)?.[0] ?? c).join('');
  return `${negative ? s.minus : ''}${local(whole)}${fraction !== undefined ? `${s.decimal}${local(fraction)}` : ''}`;
}

/** The other common convention: a decimal point with comma groups, or a decimal comma with point groups. */
function otherConvention(s: Symbols): { decimal: string; group: string } {
  return s.decimal === ',' ? { decimal: '.', group: ',' } : { decimal: ',', group: '.' };
}

export function parseLocaleNumber(input: string, locale: string, options: { readonly integer?: boolean } = {}): NumberReading {
  const text = input.trim();
  if (text === '') return { kind: 'empty' };
  const s = localeSymbols(locale);
  const own = readWith(text, s.decimal, s.group, s, true);
  const other = otherConvention(s);
  const theirs = readWith(text, other.decimal, other.group, s, true);
  if (own) {
    // `1.234`: one separator and three digits after it, no decimals: 1234 here, 1.234 in the other convention
    if (own.grouped === 1 && theirs && theirs.value !== own.value && theirs.grouped === 0) {
      return {
        kind: 'invalid',
        problem: 'ambiguous',
        readings: [formatTypedNumber(own.value, locale), formatTypedNumber(theirs.value, locale)],
      };
    }
    if (options.integer && own.value.includes('.')) return { kind: 'invalid', problem: 'not_integer', readings: [] };
    return { kind: 'number', value: own.value };
  }
  if (theirs) return { kind: 'invalid', problem: 'decimal_sign', readings: [formatTypedNumber(theirs.value, locale)] };
  return { kind: 'invalid', problem: 'not_a_number', readings: [] };
}
