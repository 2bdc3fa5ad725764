import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/errors';
import { prepareSql, runSql } from '../../../src/main/engine/sql/search-sql';
import { SQL_TEXT_MAX_BYTES } from '../../../src/main/engine/sql/sql-limits';

/**
 * Issue 21: every function that builds text is capped by one byte limit, checked before it
 * builds when it can be (`lpad('x', 2000000000)` ended the whole server: one allocation of
 * gigabytes is fatal to a process in V8, worker limits or not). Runs the real translation and
 * sql.js in this process, without tables.
 */
async function query(sql: string): Promise<unknown[]> {
  // Any function Deskstore runs: these cases are about limits, not CKAN's allow-list.
  const translated = await prepareSql(sql, () => null, 'all');
  const outcome = await runSql(sql, translated, []);
  return JSON.parse(Buffer.concat(outcome.records).toString('utf8')) as unknown[];
}

async function refusal(sql: string): Promise<string> {
  const err = await query(sql).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ValidationError);
  return ((err as ValidationError).members.query as string[])[0]!;
}

const MAX = SQL_TEXT_MAX_BYTES;
const TOO_LONG = /^requested length too large: a text value built by a query may hold at most 4 MB$/;

describe('text functions are capped by one limit', () => {
  it.each([
    [`lpad('x', 2000000000)`],
    [`rpad('x', 2000000000, 'ab')`],
    [`lpad('x', ${MAX + 1})`],
    [`repeat('x', 2000000000)`],
    [`repeat('xy', ${MAX / 2 + 1})`],
    [`repeat('é', ${MAX / 2 + 1})`], // 2 bytes each: past the limit in bytes, not in characters
    [`replace(repeat('a', 1000), 'a', repeat('b', 100000))`],
    [`translate(repeat('a', ${MAX / 4 + 1}), 'a', '😀')`], // 4 bytes each: counted in bytes once built
    [`regexp_replace(repeat('a', 1000), 'a', repeat('b', 100000), 'g')`],
    [`regexp_replace(repeat('a', 1000), '', repeat('b', 100000), 'g')`],
    [`concat(repeat('a', ${MAX / 2}), repeat('b', ${MAX / 2}), 'c')`],
    [`concat_ws(repeat(',', ${MAX / 2}), 'a', 'b', 'c')`],
    [`upper(repeat('ŉ', ${MAX / 2 - 1}))`], // ŉ (2 bytes) → ʼN (3): the result passes the limit, the argument does not
    [`(SELECT array_to_string(array_agg(x), repeat(',', ${MAX / 2})) FROM (VALUES ('a'), ('b'), ('c')) AS t(x))`],
  ])('%s', async (expr) => {
    expect(await refusal(`SELECT ${expr} AS v`)).toMatch(TOO_LONG);
  });

  it('caps aggregates that build text: string_agg and array_agg', async () => {
    const rows = `(SELECT repeat('x', 1000000) AS t FROM (VALUES (1), (2), (3), (4), (5)) AS v(n)) AS r`;
    expect(await refusal(`SELECT string_agg(t, ',') AS v FROM ${rows}`)).toMatch(TOO_LONG);
    expect(await refusal(`SELECT array_agg(t) AS v FROM ${rows}`)).toMatch(TOO_LONG);
    expect(
      await query(`SELECT length(string_agg(t, ',')) AS v FROM (SELECT repeat('x', 1000) AS t FROM (VALUES (1), (2)) AS v(n)) AS r`),
    ).toEqual([{ v: 2001 }]);
  });

  it('caps `||` in a recursive step, which can double a text at every row', async () => {
    const loop = `WITH RECURSIVE r(s, n) AS (SELECT 'ab', 0 UNION ALL SELECT s || s, n + 1 FROM r WHERE n < 40) SELECT max(length(s)) AS v FROM r`;
    expect(await refusal(loop)).toMatch(TOO_LONG);
    expect(await query(loop.replace('n < 40', 'n < 10'))).toEqual([{ v: 2048 }]);
  });

  it('still answers within the limit, with PostgreSQL results', async () => {
    expect(
      await query(
        `SELECT lpad('7', 3, '0') a, rpad('ab', 5, 'xy') b, lpad('héllo', 2) c, lpad('x', 0) d, length(repeat('é', ${MAX / 2})) e,` +
          ` replace('a.b.c', '.', '--') f, replace('abc', '', 'x') g, translate('a😀b', '😀b', 'xy') h, reverse('a😀b') i,` +
          ` left('a😀bc', -1) j, right('a😀bc', 2) k, split_part('a,b,,c', ',', -1) l, split_part('a,b', ',', 3) m,` +
          ` regexp_replace('2024-01-31', '(\\d+)-(\\d+)-(\\d+)', '\\3/\\2/\\1') n, regexp_replace('aaa', 'a', 'b', 'g') o,` +
          ` concat_ws('-', 'a', NULL, 'c') p`,
      ),
    ).toEqual([
      {
        a: '007',
        b: 'abxyx',
        c: 'hé',
        d: '',
        e: MAX / 2,
        f: 'a--b--c',
        g: 'abc',
        h: 'axy',
        i: 'b😀a',
        j: 'a😀b',
        k: 'bc',
        l: 'c',
        m: '',
        n: '31/01/2024',
        o: 'bbb',
        p: 'a-c',
      },
    ]);
  });
});

describe('regular expressions run in linear time', () => {
  it('answers a pattern that backtracks for ever in JavaScript', async () => {
    // JavaScript's engine held the SQL worker ~62 s on this (issue 21); RE2 reads the text once.
    expect(await query(`SELECT length(regexp_replace(repeat('a', 30000), '(a*)*b', 'x')) AS v`)).toEqual([{ v: 30000 }]);
    expect(await query(`SELECT repeat('a', 30000) ~ '(a|aa)*c' AS v`)).toEqual([{ v: false }]);
    expect(await query(`SELECT repeat('a', 30000) LIKE '%a%a%a%a%a%a%b' AS v`)).toEqual([{ v: false }]);
  });

  it('keeps PostgreSQL semantics: case, POSIX classes, newlines, LIKE escapes', async () => {
    expect(
      await query(
        `SELECT 'Roma' ~* '^rOMA$' a, 'x1' ~ '^[[:alpha:]][[:digit:]]$' b, E'a\\nb' ~ 'a.b' c, 'Città' ILIKE 'CITTÀ' d,` +
          ` '50%' LIKE '50\\%' e, 'a_b' LIKE 'a\\_b' f, 'axb' LIKE 'a\\_b' g`,
      ),
    ).toEqual([{ a: true, b: true, c: true, d: true, e: true, f: true, g: false }]);
  });

  it('refuses what RE2 cannot do, saying so', async () => {
    expect(await refusal(`SELECT 'aa' ~ '(a)\\1' AS v`)).toMatch(/back-references and lookaround are not supported/);
    expect(await refusal(`SELECT 'aa' ~ '(' AS v`)).toBe('invalid regular expression: (');
  });
});
