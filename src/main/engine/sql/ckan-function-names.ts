import { SQLPARSE_BUILTINS, SQLPARSE_KEYWORDS } from './ckan-sql-catalog';

/**
 * The function names CKAN's datastore_search_sql sees in a query, which it then checks against
 * its allow-list (ckanext/datastore/helpers.py::_get_function_names_from_sql): sqlparse's
 * `Function` tokens, i.e. a name followed by a parenthesis. sqlparse is a tokenizer, not
 * PostgreSQL's parser, so what it calls a function is not what PostgreSQL calls one:
 * - a word written right before `(` is a name whatever it is (`CAST(`, `ANY(`, `coalesce(`,
 *   `EXISTS(`, `varchar(3)`), except CASE, IN, VALUES, USING, FROM and AS;
 * - a word that is not one of sqlparse's keywords is a name anywhere, so `v (x)` (an alias's
 *   column list) and `FILTER (WHERE …)` are calls too, while `cast (…)`, `coalesce (…)` with a
 *   space, `IN (…)` and `::text` are not;
 * - a quoted name (`"upper"(t)`) is a symbol, never a call;
 * - a type name or a placeholder before a space and `(` (`ARRAY (SELECT …)`, `date (x)`, `? (`)
 *   is a call without a name: sqlparse's get_name() gives None, and CKAN fails on it with a 500
 *   (`None.lower()`). Deskstore refuses it as a call of that word (docs/ckan-contract.md §4).
 * This is sqlparse 0.4.2's lexer (keywords.py, SQL_REGEX, in order) and the rule of its
 * group_functions, transcribed; test/unit/engine/ckan-sql-checks.test.ts compares it with
 * sqlparse's answers.
 */

type Kind = 'name' | 'unnamed' | 'keyword' | 'open' | 'space' | 'other';

/** Python's `\w` and `\b` with re.UNICODE, which JavaScript's `\w` and `\b` are not. */
const W = '[\\p{L}\\p{N}_]';
const B = `(?!${W})`;

const RULES: [RegExp, Kind | 'word'][] = [
  [/(?:--|# )\+.*?(?:\r\n|\r|\n|$)/, 'other'],
  [/\/\*\+[\s\S]*?\*\//, 'other'],
  [/(?:--|# ).*?(?:\r\n|\r|\n|$)/, 'other'],
  [/\/\*[\s\S]*?\*\//, 'other'],
  [/(?:\r\n|\r|\n)/, 'space'],
  [/\s/, 'space'],
  [/:=/, 'other'],
  [/::/, 'other'],
  [/\*/, 'other'],
  [/`(?:``|[^`])*`/, 'name'],
  [/´(?:´´|[^´])*´/, 'name'],
  [/((?<!\S)\$(?:[_A-ZÀ-Ü]\w*)?\$)[\s\S]*?\1/, 'other'],
  [/\?/, 'unnamed'],
  [/%(?:\(\w+\))?s/, 'unnamed'],
  [new RegExp(`(?<!${W})[$:?]${W}+`), 'unnamed'],
  [new RegExp(`\\\\${W}+`), 'other'],
  [new RegExp(`(?:NOT\\s+)?IN${B}`), 'other'],
  [new RegExp(`(?:CASE|IN|VALUES|USING|FROM|AS)${B}`), 'keyword'],
  [new RegExp(`(?:@|##|#)[A-ZÀ-Ü]${W}+`), 'name'],
  [new RegExp(`[A-ZÀ-Ü]${W}*(?=\\s*\\.)`), 'name'],
  [new RegExp(`(?<=\\.)[A-ZÀ-Ü]${W}*`), 'name'],
  [new RegExp(`[A-ZÀ-Ü]${W}*(?=\\()`), 'name'],
  [/-?0x[\dA-F]+/, 'other'],
  [/-?\d+(?:\.\d+)?E-?\d+/, 'other'],
  [/(?![_A-ZÀ-Ü])-?(?:\d+(?:\.\d*)|\.\d+)(?![_A-ZÀ-Ü])/, 'other'],
  [/(?![_A-ZÀ-Ü])-?\d+(?![_A-ZÀ-Ü])/, 'other'],
  [/'(?:''|\\'|[^'])*'/, 'other'],
  [/"(?:""|\\"|[^"])*"/, 'other'],
  [/(?:""|".*?[^\\]")/, 'other'],
  [new RegExp(`(?<![\\p{L}\\p{N}_\\])])(?:\\[[^\\]\\[]+\\])`), 'name'],
  [new RegExp(`(?:(?:LEFT\\s+|RIGHT\\s+|FULL\\s+)?(?:INNER\\s+|OUTER\\s+|STRAIGHT\\s+)?|(?:CROSS\\s+|NATURAL\\s+)?)?JOIN${B}`), 'keyword'],
  [new RegExp(`END(?:\\s+IF|\\s+LOOP|\\s+WHILE)?${B}`), 'keyword'],
  [new RegExp(`NOT\\s+NULL${B}`), 'keyword'],
  [new RegExp(`NULLS\\s+(?:FIRST|LAST)${B}`), 'keyword'],
  [new RegExp(`UNION\\s+ALL${B}`), 'keyword'],
  [new RegExp(`CREATE(?:\\s+OR\\s+REPLACE)?${B}`), 'keyword'],
  [new RegExp(`DOUBLE\\s+PRECISION${B}`), 'unnamed'],
  [new RegExp(`GROUP\\s+BY${B}`), 'keyword'],
  [new RegExp(`ORDER\\s+BY${B}`), 'keyword'],
  [new RegExp(`HANDLER\\s+FOR${B}`), 'keyword'],
  [new RegExp(`(?:LATERAL\\s+VIEW\\s+)(?:EXPLODE|INLINE|PARSE_URL_TUPLE|POSEXPLODE|STACK)${B}`), 'keyword'],
  [/(?:AT|WITH')\s+TIME\s+ZONE\s+'[^']+'/, 'other'],
  [new RegExp(`(?:NOT\\s+)?(?:LIKE|ILIKE|RLIKE)${B}`), 'other'],
  [new RegExp(`[0-9_A-ZÀ-Ü][_$#\\p{L}\\p{N}]*`), 'word'],
  [/\(/, 'open'],
  [/[;:)[\],.]/, 'other'],
  [/[<>=~!]+/, 'other'],
  [/[+/@#%^&|^-]+/, 'other'],
].map(([re, kind]) => [new RegExp((re as RegExp).source, 'iuy'), kind as Kind | 'word']);

interface Token {
  readonly kind: Kind;
  readonly text: string;
}

function wordKind(text: string): Kind {
  const upper = text.toUpperCase();
  return SQLPARSE_KEYWORDS.has(upper) ? 'keyword' : SQLPARSE_BUILTINS.has(upper) ? 'unnamed' : 'name';
}

function tokens(sql: string): Token[] {
  const out: Token[] = [];
  for (let at = 0; at < sql.length;) {
    let matched = false;
    for (const [re, kind] of RULES) {
      re.lastIndex = at;
      const m = re.exec(sql);
      if (!m || m[0] === '') continue;
      const text = m[0];
      out.push({ kind: kind === 'word' ? wordKind(text) : kind, text });
      at += text.length;
      matched = true;
      break;
    }
    if (!matched) {
      // sqlparse's lexer yields an error token of one character and goes on.
      const ch = String.fromCodePoint(sql.codePointAt(at)!);
      out.push({ kind: 'other', text: ch });
      at += ch.length;
    }
  }
  return out;
}

/** sqlparse's function names, exactly: in the order first seen, once each, null for an unnamed call. */
export function sqlparseFunctionNames(sql: string): (string | null)[] {
  const list = tokens(sql);
  const names: (string | null)[] = [];
  for (let i = 0; i < list.length; i++) {
    const kind = list[i]!.kind;
    if (kind !== 'name' && kind !== 'unnamed') continue;
    let j = i + 1;
    while (j < list.length && list[j]!.kind === 'space') j++;
    if (list[j]?.kind !== 'open') continue;
    const name = kind === 'name' ? list[i]!.text : null;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** The calls CKAN checks, by the word written (an unnamed call by its type word or placeholder). */
export function ckanFunctionNames(sql: string): string[] {
  const list = tokens(sql);
  const names: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const kind = list[i]!.kind;
    if (kind !== 'name' && kind !== 'unnamed') continue;
    let j = i + 1;
    while (j < list.length && list[j]!.kind === 'space') j++;
    if (list[j]?.kind === 'open' && !names.includes(list[i]!.text)) names.push(list[i]!.text);
  }
  return names;
}
