import { describe, expect, it } from 'vitest';
import { likeMatches } from '../../../src/main/engine/sql/like-match';
import { lcg } from '../../helpers/random';

/**
 * LIKE without a regular expression (issue 21): one pass, no backtracking. Checked against the
 * regular expression LIKE used to be translated to, on random patterns and texts, and on the
 * pattern that backtracked for ever.
 */
function reference(value: string, pattern: string, insensitive: boolean): boolean {
  // PostgreSQL's ILIKE on UTF-8 text: LIKE on the lower-cased pattern and text.
  if (insensitive) return reference(value.toLowerCase(), pattern.toLowerCase(), false);
  const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) source += escape(pattern[++i]!);
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += escape(c);
  }
  return new RegExp(`^${source}$`, 'u').test(value);
}

describe('LIKE', () => {
  it('agrees with the regular expression it replaced on 20,000 random patterns and texts', () => {
    const random = lcg(21);
    const pick = (alphabet: string[], max: number) =>
      Array.from({ length: Math.floor(random() * max) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
    for (let n = 0; n < 20_000; n++) {
      const pattern = pick(['a', 'b', 'A', '%', '_', '\\%', '\\_', '😀'], 7);
      const value = pick(['a', 'b', 'A', '%', '_', '😀'], 9);
      const insensitive = random() < 0.3;
      expect(
        likeMatches(value, pattern, insensitive),
        `${JSON.stringify(value)} ${insensitive ? 'I' : ''}LIKE ${JSON.stringify(pattern)}`,
      ).toBe(reference(value, pattern, insensitive));
    }
  });

  it('answers in one pass what backtracked for ever', () => {
    const text = 'a'.repeat(30_000);
    expect(likeMatches(text, '%a%a%a%a%a%a%a%a%b', false)).toBe(false);
    expect(likeMatches(`${text}b`, '%a%a%a%a%a%a%a%a%b', false)).toBe(true);
    expect(likeMatches(text, '%a_a_a_a_a_a_c%', false)).toBe(false);
  });

  it('keeps PostgreSQL details: escapes, one code point for _, ILIKE by lower-casing both sides', () => {
    expect(likeMatches('50%', '50\\%', false)).toBe(true);
    expect(likeMatches('500', '50\\%', false)).toBe(false);
    expect(likeMatches('😀x', '_x', false)).toBe(true);
    expect(likeMatches('CITTÀ di Roma', 'città%', true)).toBe(true);
    expect(likeMatches('CITTÀ di Roma', 'città%', false)).toBe(false);
    expect(likeMatches('', '%', false)).toBe(true);
    expect(likeMatches('', '_', false)).toBe(false);
  });
});
