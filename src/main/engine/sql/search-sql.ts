import type { Database } from 'sql.js';
import type { SqlResultField } from '../../../shared/wire/search';
import { ValidationError } from '../../errors';
import type { EngineContext } from '../engine-context';
import { ROWS_MAX } from '../search/search-request';
import { loadSqlJs, rowWithBigInts } from '../sqlite/sql-js';
import { loadPostgresParser, parseStatement, PostgresSyntaxError, statementCount } from './postgres-parser';
import { registerRuntimeFunctions } from './runtime-functions';
import { CKAN_ALLOWED_FUNCTIONS, type SqlFunctionPolicy } from '../../../shared/ckan-sql-functions';
import { ckanFunctionNames } from './ckan-function-names';
import {
  functionNotAllowed,
  notAuthorizedToRead,
  PAST_DEADLINE,
  queryError,
  queryTookTooLong,
  SqlQueryError,
  UnsupportedSql,
  wrappedStatement,
} from './sql-errors';
import { sqliteOutOfMemory, textTooLong } from './sql-limits';
import { RecordsJsonWriter, ResultTooLarge } from './shape-results';
import { schemaOf, Translator, type SqlTable, type TranslatedQuery } from './translate';
import { statSync } from 'node:fs';
import { sqlitePath } from '../storage/resource-files';
import { tableFileProblem, tableImage } from '../sqlite/table-file-writer';
import { columnAggregate } from './column-aggregate';

/**
 * datastore_search_sql (docs/ckan-contract.md §4; dialect in docs/sql-and-values.md). The query is read
 * by PostgreSQL's parser, wrapped as CKAN wraps it (`SELECT * FROM (<sql>) AS blah LIMIT
 * rows_max + 1`), checked and translated to SQLite (translate.ts), run on a fresh read-only
 * connection that attaches the resources it names, and shaped as CKAN's answer
 * (shape-results.ts). The engine prepares (`planSql`) and the SQL worker runs (`runSql`,
 * sql-worker.ts); past its time limit a recursive query stops itself (`deskstore_tick`), any
 * other is stopped by terminating the SQL worker (sql-runner.ts). No user query runs in the
 * engine's thread, except a plain single-table aggregate, answered from the column store in
 * one pass over its codes (column-aggregate.ts, answerFromColumns).
 */
export interface SqlOutcome {
  readonly sql: string;
  /** The `records` member as UTF-8 JSON chunks (numbers keep their written form; shape-results.ts). */
  readonly records: Uint8Array[];
  readonly fields: SqlResultField[];
  readonly recordsTruncated: boolean;
}

/**
 * The most a `datastore_search_sql` answer's records may hold, in bytes of JSON, besides CKAN's
 * row cap: 32,000 rows of long texts (or `repeat()`) made answers of hundreds of megabytes
 * that stalled the server while they were serialised. Counted as rows are written, so a query
 * stops as it crosses it.
 */
export const SQL_RESULT_MAX_BYTES = 64 * 1024 * 1024;

const notSingleStatement = (): ValidationError => new ValidationError({ query: ['Query is not a single statement.'] });

/**
 * Parses, checks and translates (no data touched): what runSql then executes. The checks come
 * in CKAN's order (backend/postgres.py::search_sql), because which error a query gets is part of
 * the answer: one statement; PostgreSQL's own errors, which CKAN's EXPLAIN raises first (syntax,
 * unknown columns and relations, `function f() does not exist`, a function the read-only role
 * may not run: 403 `Not authorized to read resource.`); system tables (403); then, with the
 * `ckan` policy, every call CKAN's tokenizer sees (ckan-function-names.ts) against its
 * allow-list (403 `Not authorized to call function X`); only then what Deskstore cannot run.
 */
export async function prepareSql(
  sql: string,
  resolve: (name: string) => SqlTable | null,
  policy: SqlFunctionPolicy = 'ckan',
): Promise<TranslatedQuery> {
  // The 2.10.10/2.11.5 security fix: a backslash-escaped quote is refused outright.
  if (/\\'/.test(sql)) throw notSingleStatement();
  await loadPostgresParser();
  const statement = wrappedStatement(sql);
  const translator = new Translator({ resolve });
  let query: TranslatedQuery | null = null;
  let cannotRun: UnsupportedSql | null = null;
  try {
    if (statementCount(sql) > 1) throw notSingleStatement();
    query = translator.translate(parseStatement(statement));
  } catch (err) {
    if (err instanceof UnsupportedSql) cannotRun = err;
    else if (err instanceof PostgresSyntaxError || err instanceof SqlQueryError) throw queryError(err.message, statement);
    else throw err;
  }
  if (translator.deniedCalls.length) throw notAuthorizedToRead();
  if (policy === 'ckan') {
    const refused = ckanFunctionNames(statement).find((name) => !CKAN_ALLOWED_FUNCTIONS.has(name.toLowerCase()));
    if (refused !== undefined) throw functionNotAllowed(refused);
  }
  if (cannotRun) throw queryError(cannotRun.message, statement);
  return query!;
}

/**
 * Runs a translated query over the resources' databases (`files[i]` for `query.tables[i]`).
 * Past `deadline` (Date.now() milliseconds) a recursive query stops itself (runtime-functions.ts,
 * `deskstore_tick`) with "Query took too long".
 */
export async function runSql(
  sql: string,
  query: TranslatedQuery,
  files: readonly string[],
  { now = new Date(), deadline }: { now?: Date; deadline?: number } = {},
): Promise<SqlOutcome> {
  const SQL = await loadSqlJs();
  const db = new SQL.Database();
  try {
    files.forEach((file, i) => db.run(`ATTACH DATABASE ? AS ${schemaOf(i)}`, [file]));
    registerRuntimeFunctions(db, { tables: query.tables, now, ...(deadline === undefined ? {} : { deadline }) });
    db.exec('PRAGMA query_only = 1');
    return outcomeOf(sql, query, () => readRecords(db, query));
  } finally {
    db.close();
  }
}

/** The answer of `query` from its records, or the failure of writing them in CKAN's shape. */
function outcomeOf(sql: string, query: TranslatedQuery, write: () => { records: Uint8Array[]; truncated: boolean }): SqlOutcome {
  try {
    const { records, truncated } = write();
    return {
      sql,
      records,
      fields: query.columns.map((c) => ({ id: c.name, type: c.type })),
      recordsTruncated: truncated,
    };
  } catch (err) {
    if (err instanceof ResultTooLarge) {
      throw queryError(
        `The result is larger than ${SQL_RESULT_MAX_BYTES / 1024 / 1024} MB: select fewer rows (LIMIT) or columns, or aggregate in SQL`,
        wrappedStatement(sql),
      );
    }
    if (err instanceof SqlQueryError) throw queryError(err.message, wrappedStatement(sql));
    if (err instanceof Error && err.message === PAST_DEADLINE) throw queryTookTooLong();
    // sql.js reports SQLite's failures as plain Errors; anything else is a fault of ours.
    if (err instanceof Error && err.constructor === Error) throw queryError(postgresMessage(err.message), wrappedStatement(sql));
    throw err;
  }
}

/** Steps through the rows, writing each as it comes: at most ROWS_MAX, then `truncated`. */
function readRecords(db: Database, query: TranslatedQuery): { records: Uint8Array[]; truncated: boolean } {
  const writer = new RecordsJsonWriter(query.columns, SQL_RESULT_MAX_BYTES);
  const stmt = db.prepare(query.sqlite);
  try {
    let rows = 0;
    while (stmt.step()) {
      if (rows++ === ROWS_MAX) return { records: writer.finish(), truncated: true };
      writer.add(rowWithBigInts(stmt));
    }
    return { records: writer.finish(), truncated: false };
  } finally {
    stmt.free();
  }
}

/** SQLite's few run-time failures in PostgreSQL's words. */
function postgresMessage(message: string): string {
  if (/integer overflow/.test(message)) return 'bigint out of range';
  // The SQL worker's heap limit (sql-limits.ts), or SQLite's own length limit.
  if (/^out of memory$/.test(message)) return sqliteOutOfMemory().message;
  if (/string or blob too big/.test(message)) return textTooLong().message;
  if (/readonly database|query_only/.test(message)) return 'cannot execute a write statement in a read-only transaction';
  return message;
}

/** Parses and translates against the catalogue: resources resolved by id or alias. */
async function prepareInEngine(ctx: EngineContext, sql: string, policy: SqlFunctionPolicy): Promise<TranslatedQuery> {
  const query = await prepareSql(
    sql,
    (name) => {
      const id = ctx.catalogue.resolveTable(name);
      if (!id) return null;
      const resource = ctx.openResource(id);
      return { id, fields: resource.fields, language: resource.ftsLanguage };
    },
    policy,
  );
  if (query.tables.length > 9) throw queryError('a query may use at most 9 resources', wrappedStatement(sql));
  return query;
}

/**
 * A query ready for the SQL worker (sql-worker.ts), which runs user SQL away from the engine
 * worker so that a slow query never holds up searches and writes: each table is its
 * generation's file plus the journal written since, up to the bytes acknowledged now. When the
 * SQL worker could not read a file (`images`: a damaged one, or one a checkpoint replaced
 * meanwhile), every table is handed over as an image written from the column store, which
 * holds every acknowledged write (writing it holds the engine for a time bounded by the
 * table's size; the query itself never runs here); a damaged file is marked so that the next
 * maintenance writes a new generation.
 */
export async function planSql(
  ctx: EngineContext,
  sql: string,
  images = false,
  policy: SqlFunctionPolicy = 'ckan',
  columnStore = true,
): Promise<SqlPlan | SqlAnswered> {
  const query = await prepareInEngine(ctx, sql, policy);
  if (columnStore) {
    const answered = answerFromColumns(ctx, sql, query);
    if (answered) return { answered };
  }
  const tables: SqlTableSource[] = [];
  for (const table of query.tables) {
    const resource = ctx.openResource(table.id);
    if (images && !resource.tableFileUnusable) {
      const problem = tableFileProblem(sqlitePath(resource.dir, resource.generation));
      if (problem) {
        resource.tableFileUnusable = true;
        ctx.logger.warn(
          `resource ${resource.id}: table file unusable (${problem}); SQL reads the table written from the column store until the next maintenance writes a new generation`,
        );
      }
    }
    const file = images || resource.tableFileUnusable ? null : tableFile(resource.dir, resource.generation);
    if (file) {
      tables.push({ id: table.id, dir: resource.dir, generation: resource.generation, ...file, journalBytes: resource.journal().size });
    } else {
      tables.push({ id: table.id, image: tableImage(resource.dir, resource.id, resource.fields, resource.store) });
    }
  }
  return { sql, query, tables };
}

/**
 * A plain single-table aggregate answered from the column store (column-aggregate.ts): no
 * table file read, no SQL worker. The column store holds every acknowledged write, as the SQL
 * worker's copy does once it has replayed the journal. It runs here, in the engine worker, as
 * a datastore_search does: one pass over the codes of the columns it names, bounded by the
 * table's rows, so CKAN's time limit (which stops the SQL worker) has nothing to stop.
 */
function answerFromColumns(ctx: EngineContext, sql: string, query: TranslatedQuery): SqlOutcome | null {
  if (query.tables.length !== 1) return null;
  const resource = ctx.openResource(query.tables[0]!.id);
  const aggregate = columnAggregate(sql, query, { store: resource.store, fields: resource.fields });
  if (!aggregate) return null;
  return outcomeOf(sql, query, () => {
    const writer = new RecordsJsonWriter(query.columns, SQL_RESULT_MAX_BYTES);
    for (const row of aggregate.rows) writer.add(row);
    return { records: writer.finish(), truncated: aggregate.truncated };
  });
}

/**
 * Which file a generation's table file is (inode, size, modification time), and its size; null
 * when there is none. A table dropped and created again may reuse a generation number, and a
 * copy of the old one must not serve.
 */
function tableFile(dir: string, generation: number): { file: string; fileBytes: number } | null {
  try {
    const s = statSync(sqlitePath(dir, generation));
    return { file: `${s.ino}:${s.size}:${s.mtimeMs}`, fileBytes: s.size };
  } catch {
    return null;
  }
}

/**
 * A table as the engine acknowledged it: its folder's generation file and journal, or an
 * image of the engine's table (SqlTableImage).
 */
export type SqlTableSource = SqlTableFile | SqlTableImage;

export interface SqlTableImage {
  readonly id: string;
  /** The table as a SQLite file's bytes (sql.js `export()`), journal included. */
  readonly image: Uint8Array;
}

export interface SqlTableFile {
  readonly id: string;
  readonly dir: string;
  readonly generation: number;
  /** Which file (tableFile): the SQL worker keeps a copy only while this is the same. */
  readonly file: string;
  readonly fileBytes: number;
  /** Acknowledged journal bytes when the query was planned. */
  readonly journalBytes: number;
}

/** A query the engine answered itself (answerFromColumns): nothing for the SQL worker to run. */
export interface SqlAnswered {
  readonly answered: SqlOutcome;
}

export interface SqlPlan {
  readonly sql: string;
  readonly query: TranslatedQuery;
  readonly tables: readonly SqlTableSource[];
}
