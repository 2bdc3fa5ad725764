import { describe, expect, it } from 'vitest';
import { AuthorizationError, ValidationError } from '../../../src/main/errors';
import { fieldTypeOf } from '../../../src/main/engine/field-types';
import { divideScaled, numericOperation, roundNumeric, toScaled } from '../../../src/main/engine/sql/decimal-arithmetic';
import { prepareSql } from '../../../src/main/engine/sql/search-sql';
import { pythonFloatText } from '../../../src/main/engine/sql/sql-values';
import type { SqlTable } from '../../../src/main/engine/sql/translate';

/** The pure half of datastore_search_sql: PostgreSQL text → checked SQLite text + column plan. */
const TABLE: SqlTable = {
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  fields: [
    { id: 'name', type: fieldTypeOf('text') },
    { id: 'n', type: fieldTypeOf('numeric') },
    { id: 'big', type: fieldTypeOf('int8') },
  ],
  language: 'english',
};
const resolve = (name: string) => (name === TABLE.id || name === 'alias_x' ? TABLE : null);
const plan = async (sql: string) => (await prepareSql(sql, resolve)).columns.map((c) => `${c.name}:${c.type}`);
const failure = async (sql: string) =>
  prepareSql(sql, resolve).then(
    () => null,
    (err: unknown) => err,
  );

describe('prepareSql', () => {
  it('plans PostgreSQL names and types without touching data', async () => {
    expect(await plan(`SELECT count(*), upper(name), n::text, 1 + 1, 'x', big * 2 AS twice FROM public."${TABLE.id}"`)).toEqual([
      'count:int8',
      'upper:text',
      'n:text',
      '?column?:int4',
      '?column?:text',
      'twice:int8',
    ]);
    expect(await plan('SELECT * FROM alias_x')).toEqual(['_id:int4', '_full_text:tsvector', 'name:text', 'n:numeric', 'big:int8']);
    expect(await plan("SELECT sum(n), avg(big), min(n), date_trunc('day', now()) FROM alias_x")).toEqual([
      'sum:numeric',
      'avg:numeric',
      'min:numeric',
      'date_trunc:timestamptz',
    ]);
    const translated = await prepareSql('SELECT name FROM alias_x', resolve);
    expect(translated.tables.map((t) => t.id)).toEqual([TABLE.id]);
    expect(translated.sqlite).toContain(`r0."${TABLE.id}"`);
    expect(translated.sqlite).toMatch(/LIMIT 32001$/);
  });

  it('refuses as CKAN: single statements, system tables, the function allow-list', async () => {
    expect(await failure('SELECT 1; SELECT 2')).toEqual(new ValidationError({ query: ['Query is not a single statement.'] }));
    expect(await failure("SELECT 'a\\'b'")).toEqual(new ValidationError({ query: ['Query is not a single statement.'] }));
    expect(await failure('SELECT * FROM pg_catalog.pg_user')).toBeInstanceOf(AuthorizationError);
    // EXPLAIN runs first on CKAN, and PostgreSQL denies lo_import to the read-only role.
    expect(((await failure('SELECT lo_import(name) FROM alias_x')) as AuthorizationError).message).toBe(
      'Access denied: Not authorized to read resource.',
    );
    expect(((await failure('SELECT coalesce(n, 0) FROM alias_x')) as AuthorizationError).message).toBe(
      'Access denied: Not authorized to call function coalesce',
    );
    const unknown = (await failure('SELECT nope FROM alias_x')) as ValidationError;
    expect(unknown.members.query).toEqual(['column "nope" does not exist']);
    expect(((await failure('SELECT name FROM alias_x a, alias_x b')) as ValidationError).members.query).toEqual([
      'column reference "name" is ambiguous',
    ]);
    expect(((await failure('UPDATE x SET y = 1')) as ValidationError).members.query).toEqual(['syntax error at or near "SET"']);
  });
});

describe('numeric arithmetic as PostgreSQL', () => {
  it("keeps scales and divides with numeric's scale", () => {
    expect(numericOperation('+', '2.50', 0.25)).toBe(2.75);
    expect(numericOperation('*', '2.50', 2)).toBe('5.00');
    expect(numericOperation('-', 0, '0.30')).toBe('-0.30');
    expect(numericOperation('%', '10.5', 3)).toBe(1.5);
    expect(String(divideScaled(toScaled(1), toScaled('3.0')).units)).toBe('33333333333333333333');
    expect(numericOperation('/', 10, '4.0')).toBe('2.5000000000000000');
    expect(() => numericOperation('/', 1, 0)).toThrow('division by zero');
    expect(roundNumeric('2.567', 2, false)).toBe(2.57);
    expect(roundNumeric('-2.5', 0, false)).toBe(-3);
    expect(roundNumeric('2.567', 1, true)).toBe(2.5);
    expect(roundNumeric('1234.5', -2, false)).toBe(1200);
  });
  it('writes float8 results as Python does', () => {
    expect([1, 0.1, 1e-7, 1e16, 1.5e300, -2.25, 123456789012345680].map(pythonFloatText)).toEqual([
      '1.0',
      '0.1',
      '1e-07',
      '1e+16',
      '1.5e+300',
      '-2.25',
      '1.2345678901234568e+17',
    ]);
  });
});
