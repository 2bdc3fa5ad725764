import { describe, expect, it } from 'vitest';
import {
  MAX_QUERY_LENGTH,
  TsQuerySyntaxError,
  parseTsQuery,
  plainToTsQuery,
  tsQueryToString,
  type TsQuery,
} from '../../../src/main/engine/fts/tsquery';

const q = (text: string, language: 'english' | 'simple' | 'italian' = 'english'): string => tsQueryToString(parseTsQuery(text, language));
const term = (lexeme: string, prefix = false): TsQuery => ({ type: 'term', lexeme, prefix });

describe('plainToTsQuery', () => {
  it('ANDs the distinct lexemes, no operators, no prefixes', () => {
    expect(plainToTsQuery('tolstoy annakarenina', 'english')).toEqual({ type: 'and', items: [term('tolstoy'), term('annakarenina')] });
    expect(plainToTsQuery('Brazil', 'english')).toEqual(term('brazil'));
    expect(plainToTsQuery('annakar:*', 'english')).toEqual(term('annakar'));
    expect(plainToTsQuery('cat & !dog | (fox)', 'english')).toEqual({ type: 'and', items: [term('cat'), term('dog'), term('fox')] });
  });

  it('reduces a stop-word-only query to empty (matches nothing, not an error)', () => {
    expect(plainToTsQuery('the', 'english')).toEqual({ type: 'empty' });
    expect(plainToTsQuery('', 'english')).toEqual({ type: 'empty' });
    expect(plainToTsQuery('the', 'simple')).toEqual(term('the'));
  });
});

describe('parseTsQuery (to_tsquery)', () => {
  it('normalises operands through the configuration', () => {
    expect(q('Running')).toBe("'run'");
    expect(q('Running', 'simple')).toBe("'running'");
    expect(q('CITTÀ')).toBe("'città'");
    expect(q('annakar:*')).toBe("'annakar':*");
  });

  it('drops stop-word operands like PostgreSQL', () => {
    expect(q('the & cat')).toBe("'cat'");
    expect(q('cat | the')).toBe("'cat'");
    expect(q('!the')).toBe('');
    expect(q('the <-> the')).toBe('');
    expect(parseTsQuery('the & a', 'english')).toEqual({ type: 'empty' });
  });

  it('turns multi-lexeme operands into phrases with stop-word gaps', () => {
    expect(q('war-and-peace')).toBe("'war-and-peac' <-> 'war' <2> 'peac'");
    expect(q('Emilia-Romagna:*')).toBe("'emilia-romagna':* <-> 'emilia':* <-> 'romagna':*");
    expect(q("'supernovae stars' & !crab")).toBe("'supernova' <-> 'star' & !'crab'");
    expect(q("'the cat sat on the mat'")).toBe("'cat' <-> 'sat' <3> 'mat'");
    expect(q('2011-04-04')).toBe("'2011' <-> '-04' <-> '-04'");
    expect(q('cat <-> the <-> dog')).toBe("'cat' <2> 'dog'");
    expect(q('cat <-> (the | a) <-> dog')).toBe("'cat' <2> 'dog'");
  });

  it('applies PostgreSQL precedence: ! then <-> then & then |', () => {
    expect(parseTsQuery('cat | dog & fox', 'english')).toEqual({
      type: 'or',
      items: [term('cat'), { type: 'and', items: [term('dog'), term('fox')] }],
    });
    expect(parseTsQuery('cat & dog <-> fox', 'english')).toEqual({
      type: 'and',
      items: [term('cat'), { type: 'phrase', items: [term('dog'), term('fox')], distance: 1 }],
    });
    expect(parseTsQuery('!cat <-> dog', 'english')).toEqual({
      type: 'phrase',
      items: [{ type: 'not', item: term('cat') }, term('dog')],
      distance: 1,
    });
    expect(parseTsQuery('!cat & dog', 'english')).toEqual({ type: 'and', items: [{ type: 'not', item: term('cat') }, term('dog')] });
    expect(parseTsQuery('(cat | dog) & fox', 'english')).toEqual({
      type: 'and',
      items: [{ type: 'or', items: [term('cat'), term('dog')] }, term('fox')],
    });
    expect(parseTsQuery('!!cat', 'english')).toEqual({ type: 'not', item: { type: 'not', item: term('cat') } });
    expect(q('cat <2> dog <2> fox')).toBe("'cat' <2> 'dog' <2> 'fox'");
    expect(q('cat <-> (dog <-> fox)')).toBe("'cat' <-> ( 'dog' <-> 'fox' )");
    expect(q('cat <0> dog')).toBe("'cat' <0> 'dog'");
  });

  it('accepts weights and ignores them, keeps the prefix flag', () => {
    expect(q('Fat | Rats:AB')).toBe("'fat' | 'rat'");
    expect(q('supern:*A & star:A*B')).toBe("'supern':* & 'star':*");
  });

  it('reads quoted operands and escapes', () => {
    expect(q("'it''s a cat'")).toBe("'cat'");
    expect(q('cat\\&dog')).toBe("'cat' <-> 'dog'");
    expect(q("'new york'", 'simple')).toBe("'new' <-> 'york'");
  });

  it('returns empty for a blank query', () => {
    expect(parseTsQuery('', 'english')).toEqual({ type: 'empty' });
    expect(parseTsQuery('   ', 'english')).toEqual({ type: 'empty' });
  });

  it.each([
    ['(città', 'unbalanced open parenthesis'],
    ['città)', 'unbalanced close parenthesis'],
    ['a & ', 'operator without right operand'],
    ['cat &', 'operator at end'],
    ['&', 'operator without operands'],
    ['& cat', 'operator without left operand'],
    ['cat dog', 'two operands without operator'],
    ["'abc", 'unterminated quote'],
    ["''", 'empty quoted operand'],
    ['()', 'empty parentheses'],
    ['!', 'NOT without operand'],
    [':cat', 'leading colon'],
    ['cat:x', 'junk after modifiers'],
    ['cat <-> ', 'phrase operator without right operand'],
    ['cat <-', 'broken phrase operator'],
    ['cat <5 dog', 'unclosed distance'],
    ['cat <99999> dog', 'distance out of range'],
    ['cat\\', 'dangling escape'],
    ['cat | | dog', 'doubled operator'],
  ])('rejects %j (%s)', (text) => {
    expect(() => parseTsQuery(text, 'english')).toThrow(TsQuerySyntaxError);
  });

  it('bounds hostile input instead of overflowing the stack', () => {
    expect(() => parseTsQuery(`${'('.repeat(10_000)}cat${')'.repeat(10_000)}`, 'english')).toThrow(/parentheses deep/);
    expect(() => parseTsQuery('x'.repeat(1_000_000), 'english')).toThrow(/too long/);
    expect(() => parseTsQuery(`${'!'.repeat(40)}cat`, 'english')).toThrow(TsQuerySyntaxError);
    expect(() => plainToTsQuery('x '.repeat(1_000_000), 'english')).toThrow(/too long/);
    // Long but flat queries are fine and stay flat.
    const wide = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' & ');
    expect(wide.length).toBeLessThan(MAX_QUERY_LENGTH);
    const parsed = parseTsQuery(wide, 'english');
    expect(parsed.type === 'and' && parsed.items.length).toBe(5000);
    const chain = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' <-> ');
    const phrase = parseTsQuery(chain, 'english');
    expect(phrase.type === 'phrase' && phrase.items.length).toBe(5000);
    // A 1 MB plain query is accepted (linear work).
    expect(plainToTsQuery('parola '.repeat(140_000), 'italian')).toEqual(term('parol'));
  });

  it('rejects trees deeper than the limit even without parentheses', () => {
    // Alternating distances cannot be flattened: every change nests one level.
    const alternating = Array.from({ length: 600 }, (_, i) => `w${i}`).reduce((acc, w, i) => `${acc} ${i % 2 ? '<->' : '<2>'} ${w}`);
    expect(() => parseTsQuery(alternating, 'english')).toThrow(/too complex/);
  });
});
