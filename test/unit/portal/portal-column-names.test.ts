import { describe, expect, it } from 'vitest';
import { portalColumnNames } from '../../../src/main/portal/portal-column-names';

describe('column names a portal keeps (63 bytes, issue 23)', () => {
  it('keeps names that fit, cuts longer ones on a character boundary, unique, the same every time', () => {
    const fits = 'x'.repeat(63);
    const accented = `${'a'.repeat(62)}à`; // 63 characters, 64 bytes
    const emoji = `${'b'.repeat(61)}😀z`; // the cut may not split the surrogate pair
    const twin = `${'a'.repeat(62)}è`; // cuts to the same 62 a's as `accented`
    const spaced = `${'c'.repeat(60)}   tail`;
    const ids = [fits, accented, emoji, twin, spaced, 'n'];
    const { names, renamed } = portalColumnNames(ids);
    expect(names).toEqual([fits, 'a'.repeat(62), 'b'.repeat(61), `${'a'.repeat(61)}_2`, 'c'.repeat(60), 'n']);
    expect(renamed.map((r) => r.from)).toEqual([accented, emoji, twin, spaced]);
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
    expect(new Set(names).size).toBe(names.length);
    expect(portalColumnNames(ids)).toEqual({ names, renamed });
  });

  it('never takes the name of a column that fits', () => {
    const long = `${'d'.repeat(70)}`;
    const { names } = portalColumnNames([long, 'd'.repeat(63), `${'d'.repeat(61)}_2`]);
    expect(names[0]).toBe(`${'d'.repeat(61)}_3`);
  });
});
