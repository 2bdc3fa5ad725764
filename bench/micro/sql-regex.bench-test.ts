// Regular expressions in datastore_search_sql on RE2 (re2js: engine/sql/sql-regex.ts) and LIKE
// on its own one-pass matcher (like-match.ts), issue 21, against JavaScript's own backtracking
// engine, which they replaced: one pattern could hold the SQL worker for a minute. The work measured is one filter's worth of matches
// over 1,000,000 values shaped like a column of addresses, and one regexp_replace over them;
// ratios to JavaScript's engine in the same run, with the target each must meet: LIKE about
// as fast; RE2 slower (a linear-time engine in JS against V8's compiled backtracker), within
// an order of magnitude for a filter. The assertions check only that both find the same rows.
import { describe, expect, it } from 'vitest';
import { likeMatches } from '../../src/main/engine/sql/like-match';
import { posixRegex, regexReplace } from '../../src/main/engine/sql/sql-regex';
import { fastestMs, reportRatio } from './ratio-report';

const best = (run: () => unknown, repeats = 3) => fastestMs(run, repeats);
const report = (label: string, time: number, baseline: number, target: number) =>
  reportRatio(['new', 'js'] as const, label, time, baseline, target);

const ROWS = 1_000_000;
const VIA = ['Via Garibaldi', 'Corso Italia', 'Piazza Duomo', 'Viale Roma', 'Largo Augusto'];
const values = Array.from({ length: ROWS }, (_, i) => `${VIA[i % VIA.length]} ${(i * 7) % 997}, ${10000 + (i % 89999)} Città ${i % 311}`);

describe('RE2 against JavaScript regular expressions, 1M values (printed, not asserted)', () => {
  const cases: { label: string; re2: (s: string) => boolean; js: RegExp; target: number }[] = [
    {
      label: "LIKE '%garibaldi 9%' (ILIKE)",
      re2: (s) => likeMatches(s, '%garibaldi 9%', true),
      js: /^[\s\S]*garibaldi 9[\s\S]*$/iu,
      target: 2,
    },
    { label: "LIKE 'Via%'", re2: (s) => likeMatches(s, 'Via%', false), js: /^Via[\s\S]*$/u, target: 2 },
    { label: "LIKE '%Città _1'", re2: (s) => likeMatches(s, '%Città _1', false), js: /^[\s\S]*Città [\s\S]1$/u, target: 2 },
    { label: "~ '[[:digit:]]{5} Città'", re2: (s) => posixRegex('[[:digit:]]{5} Città', false).test(s), js: /\d{5} Città/u, target: 12 },
    {
      label: "~* '^(via|corso) .*, 1'",
      re2: (s) => posixRegex('^(via|corso) .*, 1', true).test(s),
      js: /^(via|corso) [\s\S]*, 1/iu,
      target: 12,
    },
  ];
  for (const c of cases) {
    it(c.label, () => {
      let a = 0;
      let b = 0;
      const re2 = best(() => (a = values.filter(c.re2).length));
      const js = best(() => (b = values.filter((s) => c.js.test(s)).length));
      expect(a).toBe(b);
      report(c.label, re2, js, c.target);
    });
  }

  it("regexp_replace(v, '[0-9]+', '#', 'g')", () => {
    const re = posixRegex('[0-9]+', false);
    let a = 0;
    let b = 0;
    const re2 = best(() => (a = values.reduce((n, s) => n + regexReplace(s, re, '#', true).length, 0)), 1);
    const js = best(() => (b = values.reduce((n, s) => n + s.replace(/[0-9]+/gu, '#').length, 0)), 1);
    expect(a).toBe(b);
    report("regexp_replace(v, '[0-9]+', '#', 'g')", re2, js, 25);
  });

  it("patterns that held the SQL worker: '(a*)*b' and LIKE '%a%a%a%a%a%a%b' on 30,000 a's", () => {
    const text = 'a'.repeat(30_000);
    const started = performance.now();
    expect(regexReplace(text, posixRegex('(a*)*b', false), 'x', false)).toBe(text);
    console.log(
      `${"regexp_replace(repeat('a', 30000), '(a*)*b', 'x')".padEnd(40)} re2 ${(performance.now() - started).toFixed(1).padStart(8)} ms   js ~62,000 ms (issue 21)`,
    );
    const likeStarted = performance.now();
    expect(likeMatches(text, '%a%a%a%a%a%a%b', false)).toBe(false);
    console.log(
      `${"repeat('a', 30000) LIKE '%a%a%a%a%a%a%b'".padEnd(40)} new ${(performance.now() - likeStarted).toFixed(1).padStart(8)} ms`,
    );
  });
});
