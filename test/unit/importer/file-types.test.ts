import { describe, expect, it } from 'vitest';
import { FileColumnTypes, type CellKind } from '../../../src/main/importer/file-types';

function typesOf(columns: readonly (readonly [CellKind | undefined, string])[][]): ReturnType<FileColumnTypes['types']> {
  const types = new FileColumnTypes();
  columns.forEach((cells, column) => cells.forEach(([kind, text]) => types.observe(column, kind, text)));
  return types.types(columns.length + 1);
}

describe('the types a file gives its columns', () => {
  it('takes a column whose every cell agrees, at the narrowest type that holds them all', () => {
    expect(
      typesOf([
        [
          ['number', '1'],
          ['number', '-2147483647'],
        ],
        [
          ['number', '1'],
          ['number', '2147483648'],
        ],
        [
          ['number', '7'],
          ['number', '0.5'],
        ],
        [
          ['number', '1'],
          ['number', '99999999999999999999'],
        ],
        [
          ['date', '2024-01-01'],
          ['date', '2024-01-02'],
        ],
        [
          ['date', '2024-01-01'],
          ['date', '2024-01-01T12:00:00'],
        ],
        [
          ['bool', 'true'],
          ['bool', 'false'],
        ],
      ]),
    ).toEqual(['int4', 'int8', 'numeric', 'numeric', 'date', 'timestamp', 'bool', undefined]);
  });

  it("leaves to inference what mixes kinds, holds text, or is not in its kind's canonical form", () => {
    expect(
      typesOf([
        [
          ['number', '1'],
          ['text', 'n/a'],
        ],
        [
          ['text', '123'],
          ['text', '456'],
        ],
        [
          ['number', '1'],
          ['date', '2024-01-01'],
        ],
        [['number', '1e+21']],
        [['date', '12:30:05']],
        [[undefined, '1']],
        [
          ['number', '1'],
          [undefined, '2'],
        ],
      ]),
    ).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
