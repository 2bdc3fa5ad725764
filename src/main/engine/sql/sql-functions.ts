import { SqlQueryError, unsupported } from './sql-errors';
import { comparable, jsValue, literalAs, num, sqlString, text, type Expr } from './sql-expr';
import { FLOAT_TYPES, INTEGER_TYPES, TEXT_TYPES } from './sql-values';

/**
 * PostgreSQL functions translated to SQLite, with PostgreSQL's result types (count → int8,
 * sum(int4) → int8, sum(numeric) → numeric, upper → text, …). Where SQLite differs in
 * meaning (upper/lower beyond ASCII, LIKE's case, regexes, dates, exact numeric sums), the
 * translation calls a Deskstore function registered on the connection (runtime-functions.ts).
 */
export interface Call {
  readonly name: string;
  readonly args: readonly Expr[];
  readonly star: boolean;
  readonly distinct: boolean;
  /** ` ORDER BY …` inside an aggregate, already translated. */
  readonly order: string;
  /** ` FILTER (WHERE …)`, already translated. */
  readonly filter: string;
  /** ` OVER (…)`, already translated: the call is a window function. */
  readonly over: string;
}

type Handler = (call: Call) => Expr;

/** A text SQLite builds itself, checked against the limit of sql-limits.ts as it comes out. */
export const capped = (sql: string): string => `deskstore_text_cap(${sql})`;

const isNumeric = (e: Expr): boolean => INTEGER_TYPES.has(e.type) || FLOAT_TYPES.has(e.type) || e.type === 'numeric';

function arity(call: Call, min: number, max = min): void {
  if (call.args.length < min || call.args.length > max) {
    throw new SqlQueryError(`function ${call.name}(${call.args.map((a) => a.type).join(', ')}) does not exist`);
  }
}

const arg = (call: Call, i: number): Expr => call.args[i]!;
const textArgs = (call: Call): string => call.args.map((a) => text(literalAs(a, 'text'))).join(', ');

/** `name(args…)` in SQLite with the given result type. */
function plain(sqliteName: string, type: string | ((call: Call) => string), convert: (e: Expr) => string = (e) => e.sql): Handler {
  return (call) => ({ sql: `${sqliteName}(${call.args.map(convert).join(', ')})`, type: typeof type === 'string' ? type : type(call) });
}

function textFunction(sqliteName: string, type = 'text', min = 1, max = min): Handler {
  return (call) => {
    arity(call, min, max);
    return {
      sql: `${sqliteName}(${call.args.map((a, i) => (i === 0 ? text(literalAs(a, 'text')) : num(literalAs(a, 'int4')))).join(', ')})`,
      type,
    };
  };
}

/** Numbers in, the same kind out (int stays int, numeric stays numeric, float stays float8). */
function mathFunction(sqliteName: string, resultFor?: (e: Expr) => string): Handler {
  return (call) => {
    arity(call, 1, 2);
    const first = literalAs(arg(call, 0), 'numeric');
    const type = resultFor
      ? resultFor(first)
      : INTEGER_TYPES.has(first.type)
        ? first.type
        : FLOAT_TYPES.has(first.type)
          ? 'float8'
          : 'numeric';
    const args = call.args.map((a, i) => num(i === 0 ? first : literalAs(a, 'int4')));
    return { sql: `${sqliteName}(${args.join(', ')})`, type };
  };
}

const floatFunction =
  (sqliteName: string): Handler =>
  (call) => ({
    sql: `${sqliteName}(${call.args.map((a) => num(literalAs(a, 'float8'))).join(', ')})`,
    type: 'float8',
  });

function aggregateSuffix(call: Call): string {
  return `${call.filter}${call.over}`;
}

/** abs() of a numeric keeps its scale (abs(-2.50) = 2.50). */
function absolute(call: Call): Expr {
  arity(call, 1);
  const a = literalAs(arg(call, 0), 'numeric');
  if (a.type !== 'numeric') return mathFunction('abs')(call);
  return { sql: `(CASE WHEN ${num(a)} < 0 THEN deskstore_numeric_op('-', 0, ${a.sql}) ELSE ${a.sql} END)`, type: 'numeric', exact: true };
}

const AGGREGATES: Record<string, Handler> = {
  count: (call) => ({
    sql: `count(${call.star ? '*' : `${call.distinct ? 'DISTINCT ' : ''}${call.args.map((a) => a.sql).join(', ')}`})${aggregateSuffix(call)}`,
    type: 'int8',
    aggregate: true,
  }),
  sum: (call) => {
    arity(call, 1);
    const a = literalAs(arg(call, 0), 'numeric');
    if (!isNumeric(a)) throw new SqlQueryError(`function sum(${a.type}) does not exist`);
    const distinct = call.distinct ? 'DISTINCT ' : '';
    // numeric sums are exact and keep the largest scale (2.50 + 0.25 = 2.75), as PostgreSQL's.
    if (a.type === 'numeric' || a.type === 'int8') {
      return {
        sql: `deskstore_numeric_sum(${distinct}${jsValue(a)})${aggregateSuffix(call)}`,
        type: 'numeric',
        exact: true,
        aggregate: true,
      };
    }
    return { sql: `sum(${distinct}${a.sql})${aggregateSuffix(call)}`, type: FLOAT_TYPES.has(a.type) ? 'float8' : 'int8', aggregate: true };
  },
  avg: (call) => {
    arity(call, 1);
    const a = literalAs(arg(call, 0), 'numeric');
    if (!isNumeric(a)) throw new SqlQueryError(`function avg(${a.type}) does not exist`);
    const distinct = call.distinct ? 'DISTINCT ' : '';
    if (FLOAT_TYPES.has(a.type)) return { sql: `avg(${distinct}${a.sql})${aggregateSuffix(call)}`, type: 'float8', aggregate: true };
    return {
      sql: `deskstore_numeric_avg(${distinct}${jsValue(a)})${aggregateSuffix(call)}`,
      type: 'numeric',
      exact: true,
      aggregate: true,
    };
  },
  min: (call) => extreme(call, 'min'),
  max: (call) => extreme(call, 'max'),
  string_agg: (call) => {
    arity(call, 2);
    return {
      sql: capped(
        `group_concat(${call.distinct ? 'DISTINCT ' : ''}${text(literalAs(arg(call, 0), 'text'))}, ${text(literalAs(arg(call, 1), 'text'))}${call.order})${aggregateSuffix(call)}`,
      ),
      type: 'text',
      aggregate: true,
    };
  },
  array_agg: (call) => {
    arity(call, 1);
    const a = arg(call, 0);
    const element = a.type === 'unknown' ? 'text' : a.type;
    if (element.startsWith('_')) throw unsupported('array_agg of arrays');
    // Elements go in as JSON: numbers with their scale (`[2.50]`), booleans as true/false.
    const value =
      a.type === 'numeric'
        ? `json(deskstore_json_number(${a.sql}))`
        : a.type === 'bool'
          ? `json(CASE ${a.sql} WHEN 1 THEN 'true' WHEN 0 THEN 'false' END)`
          : a.sql;
    return {
      sql: capped(`json_group_array(${call.distinct ? 'DISTINCT ' : ''}${value}${call.order})${aggregateSuffix(call)}`),
      type: `_${element}`,
      aggregate: true,
    };
  },
  bool_and: (call) => ({ sql: `min(${arg(call, 0).sql})${aggregateSuffix(call)}`, type: 'bool', aggregate: true }),
  bool_or: (call) => ({ sql: `max(${arg(call, 0).sql})${aggregateSuffix(call)}`, type: 'bool', aggregate: true }),
  every: (call) => ({ sql: `min(${arg(call, 0).sql})${aggregateSuffix(call)}`, type: 'bool', aggregate: true }),
};

function extreme(call: Call, which: 'min' | 'max'): Expr {
  arity(call, 1);
  const a = arg(call, 0);
  const distinct = call.distinct ? 'DISTINCT ' : '';
  // Exact numerics compare as numbers and come back as written (2.50), not as SQLite orders
  // a mix of REALs and texts.
  if (a.type === 'numeric' && a.exact) {
    return {
      sql: `deskstore_numeric_${which}(${distinct}${a.sql})${aggregateSuffix(call)}`,
      type: 'numeric',
      exact: true,
      aggregate: true,
    };
  }
  if (a.type === 'json' || a.type.startsWith('_')) throw new SqlQueryError(`function ${which}(${a.type}) does not exist`);
  // Text by the collation, as PostgreSQL's min(text) (SQLite's compares bytes). Not as a window
  // function: sql.js's aggregates cannot be one (docs/sql-and-values.md, known differences).
  const name = TEXT_TYPES.has(a.type) && !call.over ? `deskstore_text_${which}` : which;
  return {
    sql: `${name}(${distinct}${a.type === 'unknown' ? text(a) : a.sql})${aggregateSuffix(call)}`,
    type: a.type === 'unknown' ? 'text' : a.type,
    aggregate: true,
    ...(a.exact ? { exact: true } : {}),
  };
}

const WINDOW: Record<string, Handler> = {
  row_number: () => ({ sql: 'row_number()', type: 'int8' }),
  rank: () => ({ sql: 'rank()', type: 'int8' }),
  dense_rank: () => ({ sql: 'dense_rank()', type: 'int8' }),
  percent_rank: () => ({ sql: 'percent_rank()', type: 'float8' }),
  cume_dist: () => ({ sql: 'cume_dist()', type: 'float8' }),
  ntile: (call) => ({ sql: `ntile(${num(literalAs(arg(call, 0), 'int4'))})`, type: 'int4' }),
  lag: (call) => ({ ...arg(call, 0), sql: `lag(${call.args.map((a) => a.sql).join(', ')})` }),
  lead: (call) => ({ ...arg(call, 0), sql: `lead(${call.args.map((a) => a.sql).join(', ')})` }),
  first_value: (call) => ({ ...arg(call, 0), sql: `first_value(${arg(call, 0).sql})` }),
  last_value: (call) => ({ ...arg(call, 0), sql: `last_value(${arg(call, 0).sql})` }),
  nth_value: (call) => ({ ...arg(call, 0), sql: `nth_value(${arg(call, 0).sql}, ${num(literalAs(arg(call, 1), 'int4'))})` }),
};

function roundLike(sqliteFn: 'round' | 'trunc'): Handler {
  return (call) => {
    arity(call, 1, 2);
    const a = literalAs(arg(call, 0), 'numeric');
    if (call.args.length === 2 || a.type === 'numeric') {
      // numeric: exact, with PostgreSQL's result scale (round(2.567, 2) = 2.57, round(2.5) = 3).
      const places = call.args.length === 2 ? num(literalAs(arg(call, 1), 'int4')) : '0';
      return { sql: `deskstore_numeric_${sqliteFn}(${jsValue(a)}, ${places})`, type: 'numeric', exact: true };
    }
    if (FLOAT_TYPES.has(a.type))
      return { sql: sqliteFn === 'round' ? `deskstore_round_half_even(${a.sql})` : `trunc(${a.sql})`, type: 'float8' };
    return { sql: a.sql, type: 'numeric' };
  };
}

const SCALAR: Record<string, Handler> = {
  upper: (call) => {
    arity(call, 1);
    return { sql: `deskstore_upper(${textArgs(call)})`, type: 'text' };
  },
  lower: (call) => {
    arity(call, 1);
    return { sql: `deskstore_lower(${textArgs(call)})`, type: 'text' };
  },
  initcap: (call) => {
    arity(call, 1);
    return { sql: `deskstore_initcap(${textArgs(call)})`, type: 'text' };
  },
  length: textFunction('length', 'int4'),
  char_length: textFunction('length', 'int4'),
  character_length: textFunction('length', 'int4'),
  octet_length: (call) => {
    arity(call, 1);
    return { sql: `octet_length(${textArgs(call)})`, type: 'int4' };
  },
  substr: textFunction('substr', 'text', 2, 3),
  substring: (call) => {
    arity(call, 2, 3);
    if (arg(call, 1).type === 'unknown' && !/^-?\d+$/.test(arg(call, 1).literal ?? ''))
      throw unsupported('substring with a regular expression');
    return textFunction('substr', 'text', 2, 3)(call);
  },
  left: (call) => {
    arity(call, 2);
    return { sql: `deskstore_left(${text(literalAs(arg(call, 0), 'text'))}, ${num(literalAs(arg(call, 1), 'int4'))})`, type: 'text' };
  },
  right: (call) => {
    arity(call, 2);
    return { sql: `deskstore_right(${text(literalAs(arg(call, 0), 'text'))}, ${num(literalAs(arg(call, 1), 'int4'))})`, type: 'text' };
  },
  strpos: (call) => {
    arity(call, 2);
    return { sql: `instr(${textArgs(call)})`, type: 'int4' };
  },
  // The parser turns `position(sub IN s)` into position(s, sub).
  position: (call) => {
    arity(call, 2);
    return { sql: `instr(${textArgs(call)})`, type: 'int4' };
  },
  replace: (call) => {
    arity(call, 3);
    return { sql: `deskstore_replace(${textArgs(call)})`, type: 'text' };
  },
  translate: (call) => {
    arity(call, 3);
    return { sql: `deskstore_translate(${textArgs(call)})`, type: 'text' };
  },
  btrim: (call) => {
    arity(call, 1, 2);
    return { sql: `trim(${textArgs(call)})`, type: 'text' };
  },
  ltrim: (call) => {
    arity(call, 1, 2);
    return { sql: `ltrim(${textArgs(call)})`, type: 'text' };
  },
  rtrim: (call) => {
    arity(call, 1, 2);
    return { sql: `rtrim(${textArgs(call)})`, type: 'text' };
  },
  lpad: (call) => {
    arity(call, 2, 3);
    return {
      sql: `deskstore_pad(${text(literalAs(arg(call, 0), 'text'))}, ${num(literalAs(arg(call, 1), 'int4'))}, ${call.args.length === 3 ? text(literalAs(arg(call, 2), 'text')) : "' '"}, 1)`,
      type: 'text',
    };
  },
  rpad: (call) => {
    arity(call, 2, 3);
    return {
      sql: `deskstore_pad(${text(literalAs(arg(call, 0), 'text'))}, ${num(literalAs(arg(call, 1), 'int4'))}, ${call.args.length === 3 ? text(literalAs(arg(call, 2), 'text')) : "' '"}, 0)`,
      type: 'text',
    };
  },
  repeat: (call) => {
    arity(call, 2);
    return { sql: `deskstore_repeat(${text(literalAs(arg(call, 0), 'text'))}, ${num(literalAs(arg(call, 1), 'int4'))})`, type: 'text' };
  },
  reverse: (call) => {
    arity(call, 1);
    return { sql: `deskstore_reverse(${textArgs(call)})`, type: 'text' };
  },
  split_part: (call) => {
    arity(call, 3);
    return {
      sql: `deskstore_split_part(${text(literalAs(arg(call, 0), 'text'))}, ${text(literalAs(arg(call, 1), 'text'))}, ${num(literalAs(arg(call, 2), 'int4'))})`,
      type: 'text',
    };
  },
  md5: (call) => {
    arity(call, 1);
    return { sql: `deskstore_md5(${textArgs(call)})`, type: 'text' };
  },
  concat: (call) => ({
    sql: call.args.length ? capped(call.args.map((a) => `coalesce(${text(literalAs(a, 'text'))}, '')`).join(' || ')) : "''",
    type: 'text',
  }),
  concat_ws: (call) => {
    if (call.args.length < 2) arity(call, 2, Infinity);
    return { sql: `deskstore_concat_ws(json_array(${textArgs(call)}))`, type: 'text' };
  },
  regexp_replace: (call) => {
    arity(call, 3, 4);
    return { sql: `deskstore_regexp_replace(${textArgs(call)}${call.args.length === 3 ? ', NULL' : ''})`, type: 'text' };
  },
  to_hex: (call) => {
    arity(call, 1);
    return { sql: `deskstore_to_hex(${num(arg(call, 0))})`, type: 'text' };
  },
  chr: (call) => {
    arity(call, 1);
    return { sql: `char(${num(literalAs(arg(call, 0), 'int4'))})`, type: 'text' };
  },
  quote_ident: (call) => {
    arity(call, 1);
    return { sql: `deskstore_quote_ident(${textArgs(call)})`, type: 'text' };
  },
  quote_literal: (call) => {
    arity(call, 1);
    return { sql: `quote(${textArgs(call)})`, type: 'text' };
  },
  abs: absolute,
  sign: mathFunction('sign'),
  ceil: mathFunction('ceil', (e) => (FLOAT_TYPES.has(e.type) ? 'float8' : 'numeric')),
  ceiling: mathFunction('ceil', (e) => (FLOAT_TYPES.has(e.type) ? 'float8' : 'numeric')),
  floor: mathFunction('floor', (e) => (FLOAT_TYPES.has(e.type) ? 'float8' : 'numeric')),
  round: roundLike('round'),
  trunc: roundLike('trunc'),
  mod: (call) => {
    arity(call, 2);
    const [a, b] = comparable(arg(call, 0), arg(call, 1));
    return { sql: `(${a} % ${b})`, type: INTEGER_TYPES.has(arg(call, 0).type) ? arg(call, 0).type : 'numeric' };
  },
  div: (call) => {
    arity(call, 2);
    return { sql: `CAST(${num(arg(call, 0))} / ${num(arg(call, 1))} AS INTEGER)`, type: 'numeric' };
  },
  sqrt: floatFunction('sqrt'),
  cbrt: (call) => ({ sql: `deskstore_cbrt(${num(literalAs(arg(call, 0), 'float8'))})`, type: 'float8' }),
  exp: floatFunction('exp'),
  ln: floatFunction('ln'),
  log: (call) => ({
    sql:
      call.args.length === 1
        ? `log10(${num(literalAs(arg(call, 0), 'float8'))})`
        : `log(${call.args.map((a) => num(literalAs(a, 'float8'))).join(', ')})`,
    type: 'float8',
  }),
  power: floatFunction('power'),
  pow: floatFunction('power'),
  pi: plain('pi', 'float8'),
  random: plain('deskstore_random', 'float8'),
  degrees: floatFunction('degrees'),
  radians: floatFunction('radians'),
  sin: floatFunction('sin'),
  cos: floatFunction('cos'),
  tan: floatFunction('tan'),
  cot: (call) => ({ sql: `(1.0 / tan(${num(arg(call, 0))}))`, type: 'float8' }),
  asin: floatFunction('asin'),
  acos: floatFunction('acos'),
  atan: floatFunction('atan'),
  atan2: floatFunction('atan2'),
  scale: (call) => {
    arity(call, 1);
    return { sql: `deskstore_scale(${jsValue(arg(call, 0))})`, type: 'int4' };
  },
  num_nulls: (call) => ({ sql: `(${call.args.map((a) => `(${a.sql} IS NULL)`).join(' + ')})`, type: 'int4' }),
  num_nonnulls: (call) => ({ sql: `(${call.args.map((a) => `(${a.sql} IS NOT NULL)`).join(' + ')})`, type: 'int4' }),
  now: () => ({ sql: 'deskstore_now()', type: 'timestamptz' }),
  transaction_timestamp: () => ({ sql: 'deskstore_now()', type: 'timestamptz' }),
  statement_timestamp: () => ({ sql: 'deskstore_now()', type: 'timestamptz' }),
  clock_timestamp: () => ({ sql: 'deskstore_now()', type: 'timestamptz' }),
  date_trunc: (call) => {
    arity(call, 2);
    const value = literalAs(arg(call, 1), 'timestamp');
    const type = value.type === 'date' ? 'timestamp' : value.type;
    return { sql: `deskstore_date_trunc(${text(literalAs(arg(call, 0), 'text'))}, ${value.sql}, ${sqlString(value.type)})`, type };
  },
  date_part: (call) => {
    arity(call, 2);
    const value = literalAs(arg(call, 1), 'timestamp');
    return { sql: `deskstore_extract(${text(literalAs(arg(call, 0), 'text'))}, ${value.sql}, ${sqlString(value.type)})`, type: 'float8' };
  },
  extract: (call) => {
    arity(call, 2);
    const value = literalAs(arg(call, 1), 'timestamp');
    return {
      sql: `deskstore_numeric_from(deskstore_extract(${text(literalAs(arg(call, 0), 'text'))}, ${value.sql}, ${sqlString(value.type)}))`,
      type: 'numeric',
      exact: true,
    };
  },
  to_char: (call) => {
    arity(call, 2);
    const value = arg(call, 0);
    return {
      sql: `deskstore_to_char(${jsValue(value)}, ${sqlString(value.type)}, ${text(literalAs(arg(call, 1), 'text'))})`,
      type: 'text',
    };
  },
  to_date: (call) => {
    arity(call, 2);
    return { sql: `deskstore_to_date(${textArgs(call)}, 'date')`, type: 'date' };
  },
  to_timestamp: (call) => {
    arity(call, 1, 2);
    if (call.args.length === 1) return { sql: `deskstore_epoch_to_timestamp(${num(arg(call, 0))})`, type: 'timestamptz' };
    return { sql: `deskstore_to_date(${textArgs(call)}, 'timestamptz')`, type: 'timestamptz' };
  },
  make_date: (call) => {
    arity(call, 3);
    return { sql: `deskstore_make_date(${call.args.map((a) => num(literalAs(a, 'int4'))).join(', ')})`, type: 'date' };
  },
  isfinite: (call) => ({ sql: `(${arg(call, 0).sql} IS NOT NULL)`, type: 'bool' }),
  array_length: (call) => {
    arity(call, 2);
    return { sql: `nullif(json_array_length(${arg(call, 0).sql}), 0)`, type: 'int4' };
  },
  cardinality: (call) => {
    arity(call, 1);
    return { sql: `json_array_length(${arg(call, 0).sql})`, type: 'int4' };
  },
  array_to_string: (call) => {
    arity(call, 2);
    return { sql: `deskstore_array_to_string(${call.args.map((a) => a.sql).join(', ')})`, type: 'text' };
  },
  to_json: (call) => {
    arity(call, 1);
    return { sql: `deskstore_to_json(${jsValue(arg(call, 0))}, ${sqlString(arg(call, 0).type)})`, type: 'json' };
  },
  to_tsvector: (call) => {
    arity(call, 1, 2);
    const [config, doc] = call.args.length === 2 ? [text(literalAs(arg(call, 0), 'text')), arg(call, 1)] : ['NULL', arg(call, 0)];
    return { sql: `deskstore_to_tsvector(${config}, ${text(literalAs(doc, 'text'))})`, type: 'tsvector' };
  },
  to_tsquery: tsQueryFunction('to_tsquery'),
  plainto_tsquery: tsQueryFunction('plainto_tsquery'),
  phraseto_tsquery: tsQueryFunction('phraseto_tsquery'),
  ts_rank: (call) => {
    arity(call, 2);
    return { sql: `deskstore_ts_rank(${arg(call, 0).sql}, ${arg(call, 1).sql})`, type: 'float4' };
  },
};

function tsQueryFunction(kind: string): Handler {
  return (call) => {
    arity(call, 1, 2);
    const [config, query] = call.args.length === 2 ? [text(literalAs(arg(call, 0), 'text')), arg(call, 1)] : ['NULL', arg(call, 0)];
    return { sql: `deskstore_tsquery(${sqlString(kind)}, ${config}, ${text(literalAs(query, 'text'))})`, type: 'tsquery' };
  };
}

export function isAggregate(name: string): boolean {
  return name in AGGREGATES;
}

/** Functions that are SQL syntax in PostgreSQL and never reach CKAN's allow-list as calls. */
export const SYNTAX_FUNCTIONS: ReadonlySet<string> = new Set([
  'extract',
  'position',
  'substring',
  'btrim',
  'ltrim',
  'rtrim',
  'char_length',
  'character_length',
  'octet_length',
  'now',
  'timezone',
]);

export function translateCall(call: Call): Expr {
  if (call.over) {
    const window = WINDOW[call.name];
    if (window) return { ...window(call), sql: `${window(call).sql}${call.over}`, aggregate: false };
    const aggregate = AGGREGATES[call.name];
    if (aggregate) return { ...aggregate(call), aggregate: false };
    throw new SqlQueryError(`function ${call.name} is not a window function`);
  }
  const handler = AGGREGATES[call.name] ?? SCALAR[call.name];
  if (!handler) {
    if (WINDOW[call.name]) throw new SqlQueryError(`window function ${call.name} requires an OVER clause`);
    throw unsupported(`function ${call.name}()`);
  }
  return handler(call);
}
