import { describe, expect, it } from 'vitest';
import { sniffDialect } from '../../../src/main/importer/sniff-dialect';
import { decodeSample, detectEncoding, SAMPLE_BYTES } from '../../../src/main/importer/sniff-encoding';
import { DATA_FILES, readBytes } from './data-files';

/** What the pipeline does: first 64 KB, detected encoding, decoded without BOM. */
function sampleText(name: string): string {
  const bytes = readBytes(name);
  const sample = bytes.subarray(0, SAMPLE_BYTES);
  const isWholeFile = bytes.length <= SAMPLE_BYTES;
  return decodeSample(sample, detectEncoding(sample, isWholeFile).encoding, isWholeFile);
}

describe('sniffDialect on the real files', () => {
  const newline: Record<string, string> = {
    'istat-elenco-comuni-italiani.csv': '\r\n',
  };
  for (const f of DATA_FILES) {
    it(`${f.name}: delimiter ${JSON.stringify(f.delimiter)}, skipLines ${f.skipLines}`, () => {
      const guess = sniffDialect(sampleText(f.name));
      expect(guess.delimiter).toBe(f.delimiter);
      expect(guess.skipLines).toBe(f.skipLines);
      expect(guess.headerLine).toBe(f.skipLines + 1);
      expect(guess.newline).toBe(newline[f.name] ?? '\n');
      expect(guess.confidence).toBe(1);
    });
  }

  it('ISTAT: quoted line breaks in the header are not a preamble', () => {
    const guess = sniffDialect(sampleText('istat-elenco-comuni-italiani.csv'));
    expect(guess.skipLines).toBe(0);
    expect(guess.reasons[0]?.text).toMatch(/^delimiter ";": 26 fields on \d+ of \d+ body records \(100%\)$/);
  });

  it('mise: explains the preamble line', () => {
    const guess = sniffDialect(sampleText('mise-carburanti-prezzo_alle_8-2022-03-24.csv'));
    expect(guess.reasons.map((r) => r.text)).toContain(
      '1 preamble line(s) above the header: 1 record(s) with 1 field(s) while the header and body have 5',
    );
  });
});

describe('sniffDialect rules', () => {
  const rows = (n: number, row: (i: number) => string): string => Array.from({ length: n }, (_, i) => row(i)).join('');

  it('respects quotes: a wrong delimiter inside quoted values does not win', () => {
    const text = 'id,descr,val\n' + rows(20, (i) => `${i},"a;b;c;d",${i * 2}\n`);
    expect(sniffDialect(text)).toMatchObject({ delimiter: ',', skipLines: 0 });
    // Even when the header has the same number of ";" (equal consistency, no preamble either
    // way, and ";" gives more fields): the quotes touching "," decide.
    const tie = 'id,"d;e;s;c",val\n' + rows(20, (i) => `${i},"a;b;c;d",${i * 2}\n`);
    expect(sniffDialect(tie)).toMatchObject({ delimiter: ',', skipLines: 0 });
  });

  it('a quoted field with a line break does not change the field count', () => {
    const text = 'a|b|c\n' + rows(10, (i) => `${i}|"two\nlines|here"|x\n`);
    expect(sniffDialect(text)).toMatchObject({ delimiter: '|', skipLines: 0, confidence: 1 });
  });

  it('detects tab and pipe', () => {
    expect(sniffDialect('a\tb\tc\n' + rows(10, (i) => `${i}\tx, y\tz; w\n`)).delimiter).toBe('\t');
    expect(sniffDialect('a|b\n' + rows(10, (i) => `${i}|x,y;z\n`)).delimiter).toBe('|');
  });

  it('semicolon file with decimal commas: "," would need a preamble, ";" does not', () => {
    const text = 'nome;v1;v2\n' + rows(10, (i) => `R${i};1,5;2,${i}\n`);
    expect(sniffDialect(text)).toMatchObject({ delimiter: ';', skipLines: 0 });
  });

  it('several preamble lines, an Excel-padded title row and a blank line', () => {
    const text = 'Comune di Prova;;;\nDati al 31/12/2023;;;\n\nanno;mese;valore;note\n' + rows(10, (i) => `2023;${i + 1};${i};\n`);
    const guess = sniffDialect(text);
    expect(guess).toMatchObject({ delimiter: ';', skipLines: 3, headerLine: 4 });
  });

  it('counts CRLF preamble lines as papaparse skipFirstNLines does', () => {
    const text = 'Estrazione del 2022-03-24\r\na;b;c\r\n' + rows(10, (i) => `${i};x;y\r\n`);
    expect(sniffDialect(text)).toMatchObject({ delimiter: ';', skipLines: 1, newline: '\r\n' });
  });

  it('drops a record cut by the end of the sample (even inside quotes)', () => {
    const text = 'a,b,c\n' + rows(10, (i) => `${i},x,y\n`) + '11,"unterminated, quoted';
    expect(sniffDialect(text)).toMatchObject({ delimiter: ',', confidence: 1 });
  });

  it('a forced delimiter still gets a skipLines guess', () => {
    const text = sampleText('mise-carburanti-prezzo_alle_8-2022-03-24.csv');
    expect(sniffDialect(text, { delimiter: ';' })).toMatchObject({ delimiter: ';', skipLines: 1 });
    const forcedWrong = sniffDialect(text, { delimiter: ',' });
    expect(forcedWrong).toMatchObject({ delimiter: ',', skipLines: 0, confidence: 0.2 });
    expect(forcedWrong.reasons[0]?.text).toBe('delimiter "," forced');
  });

  it('forced skipLines still get a delimiter guess', () => {
    const text = sampleText('mise-carburanti-prezzo_alle_8-2022-03-24.csv');
    expect(sniffDialect(text, { skipLines: 1 })).toMatchObject({ delimiter: ';', skipLines: 1, headerLine: 2, confidence: 1 });
    expect(sniffDialect(text, { skipLines: 0 })).toMatchObject({ delimiter: ';', skipLines: 0 });
    const istat = sampleText('istat-elenco-comuni-italiani.csv');
    expect(sniffDialect(istat, { skipLines: 0 })).toMatchObject({ delimiter: ';', skipLines: 0 });
    expect(() => sniffDialect(text, { skipLines: -1 })).toThrow(RangeError);
  });

  it('a single-column file: "," with low confidence', () => {
    const guess = sniffDialect('name\n' + rows(10, (i) => `value ${i}\n`));
    expect(guess).toMatchObject({ delimiter: ',', skipLines: 0, confidence: 0.2 });
    expect(guess.reasons.map((r) => r.text)).toEqual(['no candidate delimiter splits the records: read as a single column with ","']);
  });

  it('a header-only sample has low confidence', () => {
    const guess = sniffDialect('a;b;c\n');
    expect(guess).toMatchObject({ delimiter: ';', skipLines: 0, confidence: 0.6 });
  });

  it('empty input does not throw', () => {
    expect(sniffDialect('')).toMatchObject({ delimiter: ',', skipLines: 0 });
  });
});
