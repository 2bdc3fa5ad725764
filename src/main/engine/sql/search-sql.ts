import type { Database } from 'sql.js';
import { AuthorizationError, ValidationError } from '../../errors';
import type { EngineContext } from '../engine-context';
import { fieldTypeOf, type FieldType } from '../field-types';
import { ROWS_MAX } from '../search/search-request';
import { quoteIdentifier } from '../sqlite/identifiers';
import { loadSqlJs } from '../sqlite/sql-js';
import { native, SQLITE_FLOAT, statementPointer } from '../sqlite/native';
import { candidateNames, isSingleStatement, lexSql, postgresSyntaxMessage, SqlLexError } from './sql-text';

/**
 * datastore_search_sql (contract §4): one read-only SELECT over resources named by id or
 * alias, joined if the query likes. Each query gets a fresh connection that attaches the
 * referenced resources' databases and is set `query_only`; the statement is wrapped as CKAN
 * does (`SELECT * FROM (<sql>) AS blah LIMIT rows_max + 1`), which also makes anything but a
 * query a syntax error. The time limit is enforced from outside (the engine worker is
 * restarted if a query runs too long).
 */
export interface SqlOutcome {
  readonly sql: string;
  readonly records: Record<string, unknown>[];
  readonly fields: { id: string; type: string }[];
  readonly recordsTruncated: boolean;
}

const SYSTEM_PREFIXES = ['pg_', 'sqlite_', 'information_schema'];

function queryError(message: string, sql: string): ValidationError {
  return new ValidationError({ query: [message], info: { statement: [sql], params: [{}], orig: [message] } });
}

/** SQLite's wording → PostgreSQL's, for the errors scripts are likely to test for. */
function postgresMessage(sql: string, message: string): string {
  let m = /no such table: (?:\w+\.)?(.+)$/.exec(message);
  if (m) return `relation "${m[1]}" does not exist`;
  m = /no such column: (.+)$/.exec(message);
  if (m) return `column "${m[1]}" does not exist`;
  m = /no such function: (.+)$/.exec(message);
  if (m) return `function ${m[1]} does not exist`;
  if (/syntax error|incomplete input/.test(message)) return postgresSyntaxMessage(sql, message);
  if (/readonly database|query_only/.test(message)) return 'cannot execute a write statement in a read-only transaction';
  return message;
}

export async function searchSql(ctx: EngineContext, sql: string): Promise<SqlOutcome> {
  if (/\\'/.test(sql)) throw new ValidationError({ query: ['Query is not a single statement.'] });
  let tokens;
  try {
    tokens = lexSql(sql);
  } catch (err) {
    if (err instanceof SqlLexError) throw queryError(`syntax error: ${err.message}`, sql);
    throw err;
  }
  if (!isSingleStatement(tokens)) throw new ValidationError({ query: ['Query is not a single statement.'] });
  const body = sql.trim().replace(/;\s*$/, '');

  const names = candidateNames(tokens);
  const referenced = new Map<string, string>(); // name used in the query → resource id
  for (const name of new Set(names)) {
    const id = ctx.catalogue.resolveTable(name);
    if (id) referenced.set(name, id);
  }

  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    // A syntax error is reported before anything about tables, as PostgreSQL parses first.
    checkSyntax(db, body);
    for (const name of names) {
      if (!referenced.has(name) && SYSTEM_PREFIXES.some((p) => name.toLowerCase().startsWith(p))) {
        throw new AuthorizationError('Not authorized to access system tables');
      }
    }
    const typesByColumn = await attachResources(ctx, db, referenced);
    db.exec('PRAGMA query_only = 1');
    const wrapped = `SELECT * FROM (${body}) AS blah LIMIT ${ROWS_MAX + 1}`;
    let result: QueryRows;
    try {
      result = runQuery(SQL, db, wrapped);
    } catch (err) {
      throw queryError(postgresMessage(body, (err as Error).message), sql);
    }
    const { columns, rows, storage } = result;
    const truncated = rows.length > ROWS_MAX;
    const kept = truncated ? rows.slice(0, ROWS_MAX) : rows;
    const types = columns.map((c, i) => typesByColumn.get(c) ?? inferType(storage[i]!, kept.map((r) => r[i])));
    return {
      sql,
      fields: columns.map((id, i) => ({ id, type: types[i]!.name === 'int' ? 'int4' : types[i]!.name })),
      records: kept.map((r) => Object.fromEntries(columns.map((c, i) => [c, outputValue(r[i] ?? null, types[i]!)]))),
      recordsTruncated: truncated,
    };
  } finally {
    db.close();
  }
}

function checkSyntax(db: Database, body: string): void {
  try {
    // EXPLAIN compiles without running; "no such table" is not a syntax error and waits.
    db.prepare(`EXPLAIN SELECT * FROM (${body}) AS blah`).free();
  } catch (err) {
    const message = (err as Error).message;
    if (/syntax error|incomplete input|unrecognized token/.test(message)) throw queryError(postgresMessage(body, message), body);
  }
}

/** Attaches each referenced resource; aliases become views. Returns column → type when unambiguous. */
async function attachResources(ctx: EngineContext, db: Database, referenced: Map<string, string>): Promise<Map<string, FieldType>> {
  const attached = new Map<string, string>(); // resource id → schema name
  const types = new Map<string, FieldType | null>();
  for (const [name, id] of referenced) {
    if (attached.size >= 9 && !attached.has(id)) throw queryError('a query may use at most 9 resources', name);
    const resource = ctx.openResource(id);
    const source = await resource.sqlite();
    if (!attached.has(id)) {
      const schema = `r${attached.size}`;
      db.run(`ATTACH DATABASE ? AS ${schema}`, [(source as unknown as { filename: string }).filename]);
      attached.set(id, schema);
      types.set('_id', fieldTypeOf('int4'));
      for (const f of resource.fields) types.set(f.id, types.has(f.id) && types.get(f.id)?.name !== f.type.name ? null : f.type);
    }
    if (name !== id) {
      db.run(`CREATE TEMP VIEW ${quoteIdentifier(name)} AS SELECT * FROM ${attached.get(id)}.${quoteIdentifier(id)}`);
    }
  }
  return new Map([...types].filter((e): e is [string, FieldType] => e[1] !== null));
}

interface QueryRows {
  readonly columns: string[];
  readonly rows: unknown[][];
  /** Per column, the SQLite storage classes its values had (INTEGER, FLOAT, ...). */
  readonly storage: Set<number>[];
}

/** Runs a query keeping each value's SQLite storage class (sum() of REALs that happen to be whole is still a float). */
function runQuery(SQL: Awaited<ReturnType<typeof loadSqlJs>>, db: Database, sql: string): QueryRows {
  const stmt = db.prepare(sql);
  try {
    const pointer = statementPointer(SQL, stmt, sql);
    const columns = stmt.getColumnNames();
    const storage = columns.map(() => new Set<number>());
    const rows: unknown[][] = [];
    while (stmt.step()) {
      rows.push(stmt.get());
      if (pointer !== null) for (let c = 0; c < columns.length; c++) storage[c]!.add(native(SQL)._sqlite3_column_type(pointer, c));
    }
    return { columns, rows, storage };
  } finally {
    stmt.free();
  }
}

/** A result column's type when it is not a table column: from what SQLite stored. */
function inferType(storage: Set<number>, values: unknown[]): FieldType {
  const present = values.filter((v) => v !== null);
  if (present.length && storage.has(SQLITE_FLOAT)) return fieldTypeOf('numeric');
  if (present.length && present.every((v) => typeof v === 'number' && Number.isInteger(v))) {
    return fieldTypeOf(present.every((v) => Math.abs(v as number) <= 2147483647) ? 'int4' : 'int8');
  }
  if (present.length && present.every((v) => typeof v === 'number')) return fieldTypeOf('numeric');
  return fieldTypeOf('text');
}

function outputValue(value: unknown, type: FieldType): unknown {
  if (value === null) return null;
  switch (type.storage) {
    case 'bool': return value === 1 || value === '1';
    case 'json':
    case 'array':
      try {
        return JSON.parse(String(value));
      } catch {
        return value;
      }
    default: return value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value;
  }
}
