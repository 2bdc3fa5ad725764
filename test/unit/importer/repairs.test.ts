import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RawTable } from '../../../src/main/importer/raw-table';
import { readCsvTable } from '../../../src/main/importer/readers/csv-reader';
import type { ImportChoices } from '../../../src/main/importer/import-types';
import { fixtureFile } from '../../helpers/fixtures';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * Files with bad rows import every row, repaired as chosen and reported (issue 10, "Never
 * refuse a whole file for some bad rows").
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

const read = (path: string, choices: ImportChoices = {}): Promise<RawTable> => readCsvTable({ path, name: 'file.csv', choices });

function cellsOf(table: RawTable, column: number): (string | null)[] {
  const c = table.columns[column]!;
  return Array.from({ length: table.rows }, (_, i) => c.values[c.codes[i + 1]!] || null);
}

function fileWith(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('the registry export (pipe-delimited, | inside values, stray and unclosed ", TABs, no final newline)', () => {
  const path = fixtureFile('messy', 'registry-export.csv');
  const dataLines = readFileSync(path, 'utf8').split('\n').length - 1;

  it('has one record per data line and every id exactly once', async () => {
    const table = await read(path);
    expect(table.layout.delimiter).toBe('|');
    expect(table.rows).toBe(dataLines);
    const ids = cellsOf(table, 0).map(Number);
    expect(new Set(ids).size).toBe(dataLines);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: dataLines }, (_, i) => i + 1));
  });

  it('reports each kind of repair with line numbers, raw text and outcome', async () => {
    const table = await read(path);
    const kinds = Object.fromEntries(table.repairs.map((r) => [r.kind, r]));
    expect(kinds.stray_quotes).toMatchObject({ action: 'repair', actions: ['repair', 'skip'] });
    expect(kinds.stray_quotes!.rows).toBeGreaterThan(0);
    // Line 4 holds record 3, whose name opens a quote that never closes.
    expect(kinds.stray_quotes!.lines).toContain(4);
    expect(kinds.stray_quotes!.examples[0]).toMatchObject({ line: 4, raw: expect.stringContaining('"Cooperativa') });
    // "Rossi Srl | …" in the name: the spaced pipe and the other columns' types say where it belongs.
    expect(kinds.delimiter_in_value).toMatchObject({ action: 'repair', actions: ['repair', 'extra_column', 'skip'] });
    const joined = kinds.delimiter_in_value!.examples[0]!;
    expect(joined.outcome).toMatchObject({ code: 'import.repair.outcome.joined' });
    expect(table.header).not.toContain('extra_cells');
    const names = cellsOf(table, 2);
    expect(names.filter((n) => n?.includes(' | ')).length).toBeGreaterThan(0);
    // TABs inside values are kept.
    expect(cellsOf(table, 9)).toContain('nota\tcon tab');
  });

  it('skips the rows of a kind only when asked', async () => {
    const table = await read(path, {
      repairs: { delimiter_in_value: 'skip', extra_cells: 'skip', missing_cells: 'skip', stray_quotes: 'skip' },
    });
    const skipped = table.repairs.reduce((n, r) => n + r.rows, 0);
    expect(table.rows).toBe(dataLines - skipped);
    expect(table.repairs.every((r) => r.action === 'skip')).toBe(true);
  });
});

describe('ragged rows', () => {
  it('surplus cells nothing explains go to an extra column; short rows are padded', async () => {
    const table = await read(fileWith('ragged.csv', 'nome;anno\nAosta;2020\nBard;2021;x;y\nCogne\n;;\n'));
    expect(table.header).toEqual(['nome', 'anno', 'extra_cells']);
    expect(table.rows).toBe(4);
    expect(cellsOf(table, 2)).toEqual([null, 'x;y', null, null]);
    expect(cellsOf(table, 1)).toEqual(['2020', '2021', null, null]);
    expect(table.repairs.map((r) => [r.kind, r.action, r.lines])).toEqual([
      ['extra_cells', 'extra_column', [3]],
      ['missing_cells', 'repair', [4]],
    ]);
  });

  it('a delimiter inside a value is joined back where the typed columns say so', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => `${i};Ditta ${i};${2000 + i}`);
    const table = await read(fileWith('split.csv', ['id;nome;anno', ...rows, '10;Rossi;Bianchi;2010'].join('\n')));
    expect(table.repairs).toEqual([expect.objectContaining({ kind: 'delimiter_in_value', rows: 1, lines: [12] })]);
    expect(cellsOf(table, 1).at(-1)).toBe('Rossi;Bianchi');
    expect(cellsOf(table, 2).at(-1)).toBe('2010');
  });

  it('counts lines past quoted line breaks and blank lines', async () => {
    const table = await read(fileWith('lines.csv', 'a,b\n"x\ny",1\n\n2,3,4\n'));
    expect(table.repairs[0]).toMatchObject({ lines: [5] });
  });

  // The reader searches cells for line breaks only in chunks whose text has more line ends than
  // records (csv-reader.ts, LineEndLedger): line numbers must stay right across many chunks,
  // whatever the line ending, with or without a final newline.
  it.each([
    ['\n', true],
    ['\r\n', true],
    ['\n', false],
    ['\r\n', false],
  ])('counts lines past quoted line breaks over many parser chunks (newline %j, final newline %s)', async (nl, finalNewline) => {
    const lines: string[] = ['id,text,n'];
    const expected: number[] = [];
    let line = 2;
    const rows = 6000;
    for (let i = 1; i <= rows; i++) {
      const filler = 'x'.repeat(40 + (i % 37));
      const breaks = i % 211 === 0 ? 2 : i % 97 === 0 ? 1 : 0;
      const text = breaks ? `"${filler}${`${nl}more`.repeat(breaks)}"` : filler;
      // Every 409th row (and the last) lacks its third cell: a repair reported with its line.
      const short = i % 409 === 0 || i === rows;
      if (short) expected.push(line);
      lines.push(short ? `${i},${text}` : `${i},${text},${i}`);
      line += 1 + breaks;
    }
    // The last record holds a line break too (and may end the file without one).
    lines[lines.length - 1] = `${rows},"last${nl}cell"`;
    const table = await read(fileWith(`many-chunks-${finalNewline}-${nl.length}.csv`, lines.join(nl) + (finalNewline ? nl : '')));
    expect(table.rows).toBe(rows);
    const missing = table.repairs.find((r) => r.kind === 'missing_cells')!;
    expect(missing.rows).toBe(expected.length);
    expect(missing.lines).toEqual(expected.slice(0, 20));
    expect(cellsOf(table, 1).filter((t) => t?.includes('\n')).length).toBe(Math.floor(rows / 97) + Math.floor(rows / 211) - Math.floor(rows / (97 * 211)) + 1);
  });

  it('a quoted multi-line cell in a file whose quotes balance stays one record', async () => {
    const table = await read(fileWith('multi.csv', 'a,b\n"one\ntwo",1\n"three",2\n'));
    expect(table.rows).toBe(2);
    expect(table.repairs).toEqual([]);
    expect(cellsOf(table, 0)).toEqual(['one\ntwo', 'three']);
  });
});

describe('limits', () => {
  it('refuses more than 1,600 columns before reading rows', async () => {
    const header = Array.from({ length: 1601 }, (_, i) => `c${i}`).join(',');
    await expect(read(fileWith('wide.csv', `${header}\n1,2\n`))).rejects.toMatchObject({
      name: 'ImportInputError',
      worded: { code: 'limits.too_many_columns', params: { columns: 1601, max: 1600 } },
    });
  });
});
