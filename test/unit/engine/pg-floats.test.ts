import { describe, expect, it } from 'vitest';
import { pgFloat4Text, pgFloat8Text } from '../../../src/main/engine/values/pg-floats';

/** Floats as PostgreSQL 15 prints them (to_json and COPY csv, the same text); pairs printed by the real CKAN's PostgreSQL. */
describe('floats as PostgreSQL prints them', () => {
  it('float8', () => {
    const pairs: [number, string][] = [
      [1e15, '1e+15'],
      [1e16, '1e+16'],
      [1.2345678901234568e17, '1.2345678901234568e+17'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1.5e20, '1.5e+20'],
      [1e21, '1e+21'],
      [2.5e-7, '2.5e-07'],
      [0.1, '0.1'],
      [100, '100'],
      [1234567.125, '1234567.125'],
      [123456789012345.6, '123456789012345.6'],
      [1.2345678901234568e15, '1.2345678901234568e+15'],
      [-0, '-0'],
      [3, '3'],
      [NaN, 'NaN'],
      [Infinity, 'Infinity'],
      [0.000123, '0.000123'],
      [5e-324, '5e-324'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
    ];
    for (const [n, pg] of pairs) expect(pgFloat8Text(n), String(n)).toBe(pg);
  });

  it('float4 (ts_rank, the rank column)', () => {
    const pairs: [number, string][] = [
      [1234567, '1.234567e+06'],
      [123456, '123456'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [0.057308756, '0.057308756'],
      [1e10, '1e+10'],
      [100, '100'],
      [1.5, '1.5'],
      [3.4028235e38, '3.4028235e+38'],
      [0.076422043, '0.07642204'],
    ];
    for (const [n, pg] of pairs) expect(pgFloat4Text(n), String(n)).toBe(pg);
  });
});
