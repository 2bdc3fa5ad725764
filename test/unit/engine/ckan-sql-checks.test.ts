import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AuthorizationError, ValidationError } from '../../../src/main/errors';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { ckanFunctionNames, sqlparseFunctionNames } from '../../../src/main/engine/sql/ckan-function-names';
import { POSTGRES_FUNCTIONS } from '../../../src/main/engine/sql/ckan-sql-catalog';
import { prepareSql } from '../../../src/main/engine/sql/search-sql';
import { SYNTAX_FUNCTIONS } from '../../../src/main/engine/sql/sql-functions';
import type { SqlTable } from '../../../src/main/engine/sql/translate';
import { fixtureFile } from '../../helpers/fixtures';

/**
 * datastore_search_sql refuses what CKAN refuses, in CKAN's order and words (issue 23). The
 * expected answers are a real CKAN 2.10.10's, recorded by scripts/sql/compare-sql-checks.mjs
 * (test/fixtures/sql/sql-checks.json); which calls CKAN sees is sqlparse 0.4.2's answer for
 * each query of test/fixtures/sql/sqlparse-calls.json.
 */
interface Check {
  sql: string;
  ckan: { status: number; error?: { message?: string; query?: string[] } };
}
const fixture = JSON.parse(readFileSync(fixtureFile('sql', 'sql-checks.json'), 'utf8')) as {
  table: { fields: { id: string; type: string }[] };
  checks: Check[];
};
const calls = JSON.parse(readFileSync(fixtureFile('sql', 'sqlparse-calls.json'), 'utf8')) as { sql: string; calls: (string | null)[] }[];

const ID = 'a1b2c3d4-0000-4000-8000-00000000000c';
const TABLE: SqlTable = { id: ID, fields: fixture.table.fields.map((f) => ({ id: f.id, type: fieldTypeOf(f.type) })), language: 'english' };
interface Outcome {
  status: number;
  message?: string;
}
const outcome = (sql: string, policy: 'ckan' | 'all' = 'ckan'): Promise<Outcome> =>
  prepareSql(sql.replaceAll('$T', ID), (name) => (name === ID ? TABLE : null), policy).then(
    (): Outcome => ({ status: 200 }),
    (err: unknown) => {
      if (err instanceof AuthorizationError)
        return { status: 403, message: `Access denied: ${err.message.replace(/^Access denied: /, '')}` };
      if (err instanceof ValidationError) return { status: 409, message: String((err.members.query as string[])[0]) };
      throw err;
    },
  );

/** Valid on CKAN, beyond what Deskstore runs: its own 409 "… is not supported" (docs/sql-and-values.md). */
const CANNOT_RUN = new Set([
  'SELECT generate_series(1, 3) AS g',
  'SELECT g FROM generate_series(1, 3) AS g',
  "SELECT xmlcomment('x')",
  'SELECT ARRAY[1, 2] AS a',
]);

describe('datastore_search_sql checks as a real CKAN 2.10 makes them', () => {
  it('sees the calls sqlparse sees, in every query of the fixture', () => {
    expect(calls.length).toBeGreaterThan(400);
    for (const { sql, calls: expected } of calls) {
      expect(sqlparseFunctionNames(`SELECT * FROM (${sql}) AS blah LIMIT 32001 ;`), sql).toEqual(expected);
    }
    expect(ckanFunctionNames('SELECT ARRAY (SELECT 1), v (x), "upper"(t), cast (x as int), CAST(x AS int), a.b(1)')).toEqual([
      'ARRAY',
      'v',
      'CAST',
      'b',
    ]);
  });

  it('answers each query with CKAN’s status and words', async () => {
    const differences: string[] = [];
    for (const check of fixture.checks) {
      const mine = await outcome(check.sql);
      const ckan = check.ckan;
      if (ckan.status === 200) {
        if (mine.status !== 200 && !(CANNOT_RUN.has(check.sql) && mine.status === 409 && /not supported/.test(mine.message!))) {
          differences.push(`${check.sql}: ${mine.status} ${mine.message}`);
        }
        continue;
      }
      if (mine.status !== ckan.status) differences.push(`${check.sql}: ${mine.status} ${mine.message ?? ''} (CKAN ${ckan.status})`);
      else if (ckan.status === 403 && mine.message !== ckan.error!.message)
        differences.push(`${check.sql}: ${mine.message} (CKAN ${ckan.error!.message})`);
      // CKAN 2.10 wraps PostgreSQL's message in SQLAlchemy's (`(psycopg2.errors.X) … [SQL: …]`).
      else if (ckan.status === 409 && !ckan.error!.query![0]!.includes(mine.message!))
        differences.push(`${check.sql}: ${mine.message} (CKAN ${ckan.error!.query![0]})`);
    }
    expect(differences).toEqual([]);
  });

  it('calls any function Deskstore runs under --sql-functions all, and still refuses system tables', async () => {
    expect((await outcome('SELECT coalesce(n, 0) AS c FROM "$T"', 'all')).status).toBe(200);
    expect((await outcome('SELECT CAST(n AS text) AS c FROM "$T"', 'all')).status).toBe(200);
    expect(await outcome('SELECT * FROM _table_metadata', 'all')).toEqual({
      status: 403,
      message: 'Access denied: Not authorized to access system tables',
    });
    expect(await outcome("SELECT lo_import('/etc/passwd')", 'all')).toEqual({
      status: 403,
      message: 'Access denied: Not authorized to read resource.',
    });
  });

  it('knows every function it runs as a PostgreSQL function', () => {
    for (const name of SYNTAX_FUNCTIONS)
      expect(POSTGRES_FUNCTIONS.has(name) || ['char_length', 'character_length'].includes(name), name).toBe(true);
  });
});
