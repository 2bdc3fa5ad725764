import { describe, expect, it } from 'vitest';
import { formatCell, formatCellText } from '../../../src/renderer/src/format/cell';
import { decimalsOf, numberStyleOf } from '../../../src/renderer/src/format/number-style';

const labels = { yes: 'sì', no: 'no' };
const cell = (value: unknown, type: string, style = numberStyleOf({ id: 'x', type }, [value])) =>
  formatCellText(value, type, 'it', labels, style);

describe('number styles of columns', () => {
  it('identifiers, codes and years have no thousands separators', () => {
    const geonameid = numberStyleOf({ id: 'geonameid', type: 'int4' }, [3173435, 524901]);
    expect(formatCell(3173435, 'int4', 'it', labels, geonameid)).toBe('3173435');
    expect(numberStyleOf({ id: 'Codice Comune formato numerico', type: 'int4' }, [1001]).grouping).toBe(false);
    expect(numberStyleOf({ id: 'cod_istat', type: 'int8' }, [1001]).grouping).toBe(false);
    expect(numberStyleOf({ id: 'anno', type: 'int4' }, [2021]).grouping).toBe(false);
    // camelCase names are read word by word (issue 22, item 5)
    expect(numberStyleOf({ id: 'idImpianto', type: 'int4' }, [6492, 3654]).grouping).toBe(false);
    expect(numberStyleOf({ id: 'codISTAT', type: 'int4' }, [58091]).grouping).toBe(false);
    expect(numberStyleOf({ id: 'isSelf', type: 'int4' }, [1]).grouping).toBe(true);
    // a column of years, whatever its name
    expect(numberStyleOf({ id: 'periodo', type: 'int4' }, [2019, 2020, 2021]).grouping).toBe(false);
    // counts keep their separators
    const abitanti = numberStyleOf({ id: 'abitanti', type: 'int4' }, [2873000, 1371000]);
    expect(formatCell(2873000, 'int4', 'it', labels, abitanti)).toBe('2.873.000');
    expect(numberStyleOf({ id: 'totale_casi', type: 'int4' }, [1800, 1900, 5000]).grouping).toBe(true);
    // the row number column
    expect(numberStyleOf({ id: '_id', type: 'int' }, [1051228]).grouping).toBe(true);
  });

  it('a fixed-point column keeps its decimals: trailing zeros stay', () => {
    const prezzo = numberStyleOf({ id: 'prezzo', type: 'numeric' }, [2199.5, 1.859, 12]);
    expect(formatCell(2199.5, 'numeric', 'it', labels, prezzo)).toBe('2.199,500');
    const euro = numberStyleOf({ id: 'importo', type: 'numeric' }, [2199.5, 10.25]);
    expect(formatCell(2199.5, 'numeric', 'it', labels, euro)).toBe('2.199,50');
    expect(formatCell(3, 'numeric', 'en', labels, euro)).toBe('3.00');
    // a value sent as exact text keeps its own decimals, and digits past a double's precision
    expect(cell('2199.50', 'numeric').text).toBe('2.199,50');
    expect(cell('12345678901234567.25', 'numeric').text).toBe('12.345.678.901.234.567,25');
  });

  it('long fractions are rounded for reading, with the whole value kept for the tooltip', () => {
    const lat = cell(45.464271234567, 'numeric');
    expect(lat).toEqual({ text: '45,464271', full: '45,464271234567' });
    expect(cell(0.1 + 0.2, 'numeric')).toEqual({ text: '0,3', full: '0,30000000000000004' });
    expect(cell(0.0000123456789, 'numeric').text).toBe('0,0000123457');
    // short fractions are shown whole
    expect(cell(42.85, 'numeric')).toEqual({ text: '42,85', full: null });
  });

  it('counts decimals as written', () => {
    expect(decimalsOf(2199.5)).toBe(1);
    expect(decimalsOf('2199.50')).toBe(2);
    expect(decimalsOf(1e-7)).toBe(7);
    expect(decimalsOf(12)).toBe(0);
  });
});
