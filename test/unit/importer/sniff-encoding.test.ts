import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createUtf8Validator,
  decodeSample,
  detectEncoding,
  incompleteUtf8Tail,
  openDecodedStream,
  readSample,
  resolveEncoding,
  SAMPLE_BYTES,
  UnknownEncodingError,
} from '../../../src/main/importer/sniff-encoding';
import { removeDir, tempDir } from '../../helpers/deskstore-process';
import { DATA_DIR, DATA_FILES, dataAvailable, readBytes } from './data-files';

const tmp = tempDir('deskstore-enc-');
afterAll(() => removeDir(tmp));

function tmpFile(name: string, bytes: Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, bytes);
  return path;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<{ text: string; chunks: unknown[] }> {
  const chunks: unknown[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { text: chunks.join(''), chunks };
}

/** The data files are on disk where the province file is gzipped; stream tests need real paths. */
function plainPath(name: string): string {
  return name.endsWith('.gz') ? tmpFile(name.replace(/\.gz$/, ''), readBytes(name)) : DATA_DIR + name;
}

describe('detectEncoding on the real files', () => {
  it('finds the data directory (set DESKSTORE_TEST_DATA if it moved)', () => {
    expect(dataAvailable).toBe(true);
  });

  const expected: Record<string, [string, boolean, string, string]> = {
    // file: [encoding, bom, confidence of the 64 KB sample, confidence of the whole file]
    'dpc-covid19-ita-province.csv.gz': ['utf-8', false, 'valid-utf8', 'valid-utf8'],
    'dpc-covid19-ita-note.csv': ['utf-8', true, 'bom', 'bom'],
    'istat-elenco-comuni-italiani.csv': ['windows-1252', false, 'invalid-utf8', 'invalid-utf8'],
    'mise-carburanti-prezzo_alle_8-2022-03-24.csv': ['utf-8', false, 'ascii', 'ascii'],
    'country-codes.csv': ['utf-8', false, 'valid-utf8', 'valid-utf8'],
    'world-cities.csv': ['utf-8', false, 'valid-utf8', 'valid-utf8'],
  };
  for (const f of DATA_FILES) {
    it(f.name, () => {
      const [encoding, bom, sampleConfidence, wholeConfidence] = expected[f.name]!;
      const bytes = readBytes(f.name);
      expect(detectEncoding(bytes.subarray(0, SAMPLE_BYTES), false)).toEqual({ encoding, bom, confidence: sampleConfidence });
      expect(detectEncoding(bytes, true)).toEqual({ encoding, bom, confidence: wholeConfidence });
      expect(encoding).toBe(f.encoding); // agrees with the README
    });
  }
});

describe('detectEncoding rules', () => {
  const e8 = Buffer.from('città è già', 'utf8');
  it('a multi-byte character cut at the end of a partial sample is not an error', () => {
    const cut = e8.subarray(0, e8.length - 1); // "già" loses the second byte of "à"
    expect(detectEncoding(cut, false)).toEqual({ encoding: 'utf-8', bom: false, confidence: 'valid-utf8' });
    expect(detectEncoding(cut, true)).toEqual({ encoding: 'windows-1252', bom: false, confidence: 'invalid-utf8' });
    const emoji = Buffer.from('ok 😀', 'utf8');
    expect(detectEncoding(emoji.subarray(0, emoji.length - 2), false).encoding).toBe('utf-8');
    expect(detectEncoding(emoji.subarray(0, emoji.length - 2), true).encoding).toBe('windows-1252');
  });
  it('rejects overlong forms and surrogates anywhere', () => {
    expect(detectEncoding(Buffer.from([0x61, 0xc0, 0xaf, 0x62]), false).encoding).toBe('windows-1252');
    expect(detectEncoding(Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]), false).encoding).toBe('windows-1252');
    expect(detectEncoding(Buffer.from([0x61, 0xf5, 0x80, 0x80, 0x80]), false).encoding).toBe('windows-1252');
  });
  it('cp1252 accents are invalid UTF-8', () => {
    expect(detectEncoding(iconv.encode('Agliè;Števerjan\n', 'windows-1252'), false).confidence).toBe('invalid-utf8');
  });
  it('recognises UTF-16 BOMs', () => {
    expect(detectEncoding(Buffer.from([0xff, 0xfe, 0x61, 0x00]), false)).toEqual({ encoding: 'utf-16le', bom: true, confidence: 'bom' });
    expect(detectEncoding(Buffer.from([0xfe, 0xff, 0x00, 0x61]), false)).toEqual({ encoding: 'utf-16be', bom: true, confidence: 'bom' });
  });
  it('empty input is ASCII', () => {
    expect(detectEncoding(Buffer.alloc(0), true)).toEqual({ encoding: 'utf-8', bom: false, confidence: 'ascii' });
  });
  it('incompleteUtf8Tail counts only an unfinished sequence', () => {
    expect(incompleteUtf8Tail(Buffer.from([0x61, 0xe2, 0x82]))).toBe(2);
    expect(incompleteUtf8Tail(Buffer.from([0x61, 0xe2, 0x82, 0xac]))).toBe(0);
    expect(incompleteUtf8Tail(Buffer.from([0xf0, 0x9f, 0x98]))).toBe(3);
    expect(incompleteUtf8Tail(Buffer.from([0x80, 0x80, 0x80]))).toBe(0);
  });
});

describe('openDecodedStream', () => {
  it('decodes ISTAT as cp1252: Števerjan, Nabrežina, no C1 controls', async () => {
    const { text, chunks } = await readAll(openDecodedStream(DATA_DIR + 'istat-elenco-comuni-italiani.csv', 'windows-1252'));
    expect(chunks.every((c) => typeof c === 'string')).toBe(true);
    expect(text).toContain('San Floriano del Collio-Števerjan');
    expect(text).toContain('Duino Aurisina-Devin Nabrežina');
    expect(text).toContain(';Agliè;Agliè;');
    expect(text).not.toMatch(/[\u0080-\u009f\ufffd]/);
    expect(text.length).toBe(readBytes('istat-elenco-comuni-italiani.csv').length); // one char per byte
  });

  it('strips the BOM of the note file: the first header is "data"', async () => {
    const { text } = await readAll(openDecodedStream(DATA_DIR + 'dpc-covid19-ita-note.csv', 'utf-8'));
    expect(text.startsWith('data,note\n')).toBe(true);
    expect(text.includes('\ufeff')).toBe(false);
  });

  it('never breaks a character split across read chunks', async () => {
    const sample = 'Warīsān;€;😀;città\n'.repeat(50);
    const path = tmpFile('split.csv', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sample, 'utf8')]));
    for (const highWaterMark of [1, 2, 3, 5, 7]) {
      const { text, chunks } = await readAll(openDecodedStream(path, 'utf-8', { highWaterMark }));
      expect(text).toBe(sample);
      expect(chunks.every((c) => typeof c === 'string' && c.length > 0)).toBe(true);
    }
  });

  it('matches a one-shot decode of every UTF-8 data file', async () => {
    for (const f of DATA_FILES.filter((d) => d.encoding === 'utf-8')) {
      const { text } = await readAll(openDecodedStream(plainPath(f.name), 'utf-8', { highWaterMark: 4093 }));
      expect(text).toBe(iconv.decode(readBytes(f.name), 'utf-8', { stripBOM: true }));
    }
  });

  it('starts at a byte offset (after the mise preamble line)', async () => {
    const path = DATA_DIR + 'mise-carburanti-prezzo_alle_8-2022-03-24.csv';
    const start = 'Estrazione del 2022-03-24\n'.length;
    const { text } = await readAll(openDecodedStream(path, 'utf-8', { start }));
    expect(text.slice(0, 47)).toBe('idImpianto;descCarburante;prezzo;isSelf;dtComu\n');
  });

  it('accepts any iconv-lite encoding for --encoding', async () => {
    const path = tmpFile('u16.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a\tb\nè\t€\n', 'utf16le')]));
    expect((await readAll(openDecodedStream(path, 'utf-16le'))).text).toBe('a\tb\nè\t€\n');
    const latin1 = tmpFile('l1.csv', Buffer.from([0x63, 0x69, 0x74, 0x74, 0xe0, 0x0a]));
    expect((await readAll(openDecodedStream(latin1, 'latin1'))).text).toBe('città\n');
    expect((await readAll(openDecodedStream(latin1, 'ISO-8859-15'))).text).toBe('città\n');
  });

  it('rejects unknown encodings with a clear error', () => {
    expect(() => openDecodedStream(DATA_DIR + 'world-cities.csv', 'klingon-8')).toThrow(UnknownEncodingError);
    expect(() => resolveEncoding('klingon-8')).toThrow('Unknown encoding "klingon-8": use a name such as utf-8, windows-1252');
    expect(() => resolveEncoding('')).toThrow(UnknownEncodingError);
    expect(resolveEncoding('CP1252')).toBe('CP1252');
  });

  it('fails the stream for a missing file', async () => {
    await expect(readAll(openDecodedStream(join(tmp, 'missing.csv'), 'utf-8'))).rejects.toThrow(/ENOENT/);
  });
});

describe('samples', () => {
  it('readSample tells a whole file from a partial one', async () => {
    const small = await readSample(DATA_DIR + 'country-codes.csv', 200_000);
    expect(small.isWholeFile).toBe(true);
    expect(small.sample.length).toBe(134003);
    const part = await readSample(DATA_DIR + 'world-cities.csv');
    expect(part).toMatchObject({ isWholeFile: false });
    expect(part.sample.length).toBe(SAMPLE_BYTES);
    const exact = await readSample(tmpFile('ten.csv', Buffer.from('0123456789')), 10);
    expect(exact.isWholeFile).toBe(true);
  });
  it('decodeSample drops a character cut by the sample end and the BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a,città', 'utf8')]);
    expect(decodeSample(bytes.subarray(0, bytes.length - 1), 'utf-8', false)).toBe('a,citt');
    expect(decodeSample(bytes, 'utf-8', true)).toBe('a,città');
    expect(decodeSample(iconv.encode('Števerjan', 'windows-1252'), 'windows-1252', false)).toBe('Števerjan');
  });
});

describe('createUtf8Validator', () => {
  function validate(bytes: Buffer, chunkSize: number): { ok: boolean; invalidAt: number } {
    const v = createUtf8Validator();
    let ok = true;
    for (let i = 0; i < bytes.length && ok; i += chunkSize) ok = v.push(bytes.subarray(i, i + chunkSize));
    ok = v.end() && ok;
    return { ok, invalidAt: v.invalidAt };
  }
  it('accepts valid UTF-8 in any chunking', () => {
    const text = Buffer.from('Warīsān 😀 € città\n'.repeat(20), 'utf8');
    for (const size of [1, 2, 3, 4, 5, 64]) expect(validate(text, size)).toEqual({ ok: true, invalidAt: -1 });
    expect(validate(readBytes('world-cities.csv'), 65536).ok).toBe(true);
  });
  it('catches invalid bytes after a valid (ASCII) sample: the UTF8_INVALID_LATER case', () => {
    const bytes = Buffer.concat([Buffer.from('a;b\n'.repeat(20_000)), iconv.encode('Agliè;x\n', 'windows-1252')]);
    expect(detectEncoding(bytes.subarray(0, SAMPLE_BYTES), false).encoding).toBe('utf-8');
    expect(validate(bytes, 65536)).toEqual({ ok: false, invalidAt: 65536 });
    expect(validate(readBytes('istat-elenco-comuni-italiani.csv'), 4096).ok).toBe(false);
  });
  it('a file ending inside a character is invalid', () => {
    const bytes = Buffer.from('città', 'utf8');
    expect(validate(bytes.subarray(0, bytes.length - 1), 2)).toEqual({ ok: false, invalidAt: 4 });
  });
});
