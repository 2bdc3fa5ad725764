/**
 * A small PostgreSQL-flavoured lexer for datastore_search_sql: enough to tell one statement
 * from two, find the table names a query uses, and word SQLite's syntax errors the way
 * PostgreSQL would, so scripts written against CKAN see familiar messages.
 */
export type SqlToken =
  | { readonly kind: 'word' | 'quoted' | 'string' | 'number' | 'operator' | 'punct'; readonly text: string; readonly start: number };

const OPERATOR_CHARS = new Set('+-*/<>=~!@#%^&|`?'.split(''));

export class SqlLexError extends Error {}

export function lexSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (/\s/.test(c)) { i++; continue; }
    if (c === '-' && sql[i + 1] === '-') { while (i < sql.length && sql[i] !== '\n') i++; continue; }
    if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw new SqlLexError('unterminated /* comment');
      i = end + 2;
      continue;
    }
    const start = i;
    if (c === "'" || c === '"') {
      i++;
      while (i < sql.length) {
        if (sql[i] === c && sql[i + 1] === c) { i += 2; continue; }
        if (sql[i] === c) break;
        i++;
      }
      if (i >= sql.length) throw new SqlLexError(`unterminated ${c === "'" ? 'quoted string' : 'quoted identifier'}`);
      i++;
      tokens.push({ kind: c === "'" ? 'string' : 'quoted', text: sql.slice(start, i), start });
      continue;
    }
    if (/[\p{L}_]/u.test(c)) {
      while (i < sql.length && /[\p{L}\p{N}_$]/u.test(sql[i]!)) i++;
      tokens.push({ kind: 'word', text: sql.slice(start, i), start });
      continue;
    }
    if (/\d/.test(c) || (c === '.' && /\d/.test(sql[i + 1] ?? ''))) {
      while (i < sql.length && /[\d.eE]/.test(sql[i]!)) i++;
      tokens.push({ kind: 'number', text: sql.slice(start, i), start });
      continue;
    }
    if (OPERATOR_CHARS.has(c)) {
      while (i < sql.length && OPERATOR_CHARS.has(sql[i]!) && !(sql[i] === '-' && sql[i + 1] === '-')) i++;
      tokens.push({ kind: 'operator', text: sql.slice(start, i), start });
      continue;
    }
    tokens.push({ kind: 'punct', text: c, start });
    i++;
  }
  return tokens;
}

/** More than one statement (a `;` followed by anything but whitespace and comments). */
export function isSingleStatement(tokens: readonly SqlToken[]): boolean {
  const semi = tokens.findIndex((t) => t.kind === 'punct' && t.text === ';');
  return semi < 0 || semi === tokens.length - 1;
}

/** Every name that could be a table: bare words and double-quoted identifiers, unquoted. */
export function candidateNames(tokens: readonly SqlToken[]): string[] {
  return tokens.flatMap((t) => {
    if (t.kind === 'word') return [t.text];
    if (t.kind === 'quoted') return [t.text.slice(1, -1).replace(/""/g, '"')];
    return [];
  });
}

/**
 * SQLite's `near "X": syntax error` as PostgreSQL words it. PostgreSQL lexes runs of operator
 * characters as one operator (`**`), which may start an expression, so it stumbles one token
 * later than SQLite: `SELECT ** FROM t` fails at "FROM" there, at "*" here.
 */
export function postgresSyntaxMessage(sql: string, sqliteMessage: string): string {
  if (/incomplete input/.test(sqliteMessage)) return 'syntax error at end of input';
  const near = /near "((?:[^"]|"")*)": syntax error/.exec(sqliteMessage);
  if (!near) return sqliteMessage;
  const text = near[1]!;
  let tokens: SqlToken[];
  try {
    tokens = lexSql(sql);
  } catch {
    return `syntax error at or near "${text}"`;
  }
  const at = sql.indexOf(text);
  const index = tokens.findIndex((t) => at >= t.start && at < t.start + t.text.length);
  const token = tokens[index];
  if (!token) return `syntax error at or near "${text}"`;
  if (token.kind === 'operator') {
    const next = tokens[index + 1];
    return next ? `syntax error at or near "${next.text}"` : 'syntax error at end of input';
  }
  return `syntax error at or near "${token.text}"`;
}
