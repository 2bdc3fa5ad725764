// Micro-benchmarks: they print throughput and timings and assert only correctness, never
// speed (machines differ). Numbers under vitest are slightly pessimistic: the test runner's
// module transform adds overhead that the bundled app does not have.
import { describe, expect, it } from 'vitest';
import { documentLexemes } from '../../src/main/engine/fts/text-search-config';
import { PostingsBuilder } from '../../src/main/engine/fts/postings-builder';
import { evaluate } from '../../src/main/engine/fts/query-eval';
import { rankRows } from '../../src/main/engine/fts/rank';
import { decodeIndex, encodeIndex } from '../../src/main/engine/fts/index-codec';
import { parseTsQuery, plainToTsQuery } from '../../src/main/engine/fts/tsquery';
import type { RowUniverse } from '../../src/main/engine/fts/text-index-reader';
import { seededRandom } from '../../test/unit/fts/fts-test-helpers';

// Public-domain Italian prose (Manzoni, I promessi sposi, ch. 1; Dante, Inferno I) plus the
// kind of values open-data tables carry.
const PROSE = `Quel ramo del lago di Como, che volge a mezzogiorno, tra due catene non interrotte di monti,
tutto a seni e a golfi, a seconda dello sporgere e del rientrare di quelli, vien, quasi a un tratto, a ristringersi,
e a prender corso e figura di fiume, tra un promontorio a destra, e un'ampia costiera dall'altra parte; e il ponte,
che ivi congiunge le due rive, par che renda ancor più sensibile all'occhio questa trasformazione, e segni il punto
in cui il lago cessa, e l'Adda rincomincia, per ripigliar poi nome di lago dove le rive, allontanandosi di nuovo,
lascian l'acqua distendersi e rallentarsi in nuovi golfi e in nuovi seni. Nel mezzo del cammin di nostra vita
mi ritrovai per una selva oscura, ché la diritta via era smarrita. Ahi quanto a dir qual era è cosa dura
esta selva selvaggia e aspra e forte che nel pensier rinova la paura! Tant'è amara che poco è più morte.
La città di Forlì, in Emilia-Romagna, conta circa 117.000 abitanti; il comune è noto per l'università.
Roma è la capitale d'Italia: 2800000 residenti nel 2011-04-04, secondo l'ISTAT (www.istat.it, info@istat.it).`;

describe('benchmarks (printed, not asserted)', () => {
  it('tokenizer throughput on Italian prose', () => {
    const words = PROSE.split(/\s+/);
    const rnd = seededRandom(7);
    const cells: string[] = [];
    let bytes = 0;
    const encoder = new TextEncoder();
    while (bytes < 16_000_000) {
      const k = 3 + rnd(40);
      const start = rnd(words.length - k);
      const cell = words.slice(start, start + k).join(' ');
      cells.push(cell);
      bytes += encoder.encode(cell).length;
    }
    for (const language of ['italian', 'english', 'simple'] as const) {
      let best = Infinity;
      let lexemes = 0;
      for (let rep = 0; rep < 3; rep++) {
        const started = performance.now();
        lexemes = 0;
        for (const cell of cells) lexemes += documentLexemes(cell, language).length;
        best = Math.min(best, performance.now() - started);
      }
      console.log(
        `documentLexemes(${language}): ${(bytes / 1e6 / (best / 1000)).toFixed(1)} MB/s UTF-8 ` +
          `(${cells.length} cells, ${(bytes / 1e6).toFixed(1)} MB, ${lexemes} lexemes, ${best.toFixed(0)} ms)`,
      );
      expect(lexemes).toBeGreaterThan(0);
    }
  });

  it('1M-row build, queries, rank and codec', { timeout: 600_000 }, () => {
    const ROWS = 1_000_000;
    const rnd = seededRandom(42);
    const memBefore = process.memoryUsage();
    const builder = new PostingsBuilder();
    let started = performance.now();
    // Vocabulary: 30k words (Zipf-ish use), 2.4M codes and numbers used about once or twice.
    const wordIds = Array.from({ length: 30_000 }, (_, i) => builder.internLexeme(`parola${i.toString(36)}`));
    const codeIds = new Uint32Array(2_400_000);
    for (let i = 0; i < codeIds.length; i++) {
      codeIds[i] = builder.internLexeme(i % 2 ? String(1_000_000 + i * 7) : `c${i.toString(36)}x`);
    }
    const internMs = performance.now() - started;

    started = performance.now();
    const terms = new Uint32Array(32);
    for (let row = 1; row <= ROWS; row++) {
      let n = 0;
      for (let k = 0; k < 17; k++) {
        const r = rnd(1 << 20) / (1 << 20);
        terms[n++] = wordIds[Math.floor(r * r * r * wordIds.length)]!; // skewed towards common words
      }
      terms[n++] = codeIds[rnd(codeIds.length)]!;
      terms[n++] = codeIds[(row * 2) % codeIds.length]!;
      terms[n++] = codeIds[(row * 2 + 1) % codeIds.length]!;
      builder.addRow(row, terms.subarray(0, n));
    }
    const addMs = performance.now() - started;
    const postingsBeforeDedupe = builder.postingCount;

    started = performance.now();
    const index = builder.finish();
    const finishMs = performance.now() - started;
    const memAfter = process.memoryUsage();
    const indexBytes =
      index.termBytes.byteLength + index.termOffsets.byteLength + index.offsets.byteLength + index.rowIds.byteLength + index.tfs.byteLength;
    console.log(
      `build ${ROWS} rows: ${index.postingCount} postings (${postingsBeforeDedupe} added), ${index.termCount} terms; ` +
        `intern ${internMs.toFixed(0)} ms, addRow ${addMs.toFixed(0)} ms, finish ${finishMs.toFixed(0)} ms; ` +
        `index ${(indexBytes / 1e6).toFixed(0)} MB; heap+buffers grew ${(
          (memAfter.heapUsed + memAfter.arrayBuffers - memBefore.heapUsed - memBefore.arrayBuffers) /
          1e6
        ).toFixed(0)} MB, rss ${(memAfter.rss / 1e6).toFixed(0)} MB`,
    );
    expect(index.termCount).toBeGreaterThan(2_000_000);

    const live = Uint32Array.from({ length: ROWS }, (_, i) => i + 1);
    const universe: RowUniverse = { liveRowIds: () => live };
    const time = (label: string, fn: () => Uint32Array | Float64Array): void => {
      fn(); // warm up
      const t0 = performance.now();
      const reps = 5;
      let size = 0;
      for (let i = 0; i < reps; i++) size = fn().length;
      console.log(`  ${label}: ${((performance.now() - t0) / reps).toFixed(2)} ms (${size} rows)`);
    };
    const common = plainToTsQuery('parola0', 'simple');
    const commonRows = evaluate(common, index, universe);
    time('term (most common word)', () => evaluate(common, index, universe));
    time('AND of two common words', () => evaluate(plainToTsQuery('parola0 parola1', 'simple'), index, universe));
    time('AND common & rare', () => evaluate(plainToTsQuery('parola0 parolaz', 'simple'), index, universe));
    time('OR of three words', () => evaluate(parseTsQuery('parola0 | parola5 | parola9', 'simple'), index, universe));
    time('NOT common word', () => evaluate(parseTsQuery('!parola0', 'simple'), index, universe));
    time('prefix c1:* (many codes)', () => evaluate(parseTsQuery('c1:*', 'simple'), index, universe));
    time('prefix parola1:*', () => evaluate(parseTsQuery('parola1:*', 'simple'), index, universe));
    time('phrase candidates parola0 <-> parola1', () => evaluate(parseTsQuery('parola0 <-> parola1', 'simple'), index, universe));
    const rankSet = commonRows.subarray(0, 500_000);
    time(`rank ${rankSet.length} rows`, () => rankRows(common, index, rankSet));
    const prefixQuery = parseTsQuery('c1:* | parola0', 'simple');
    const prefixRows = evaluate(prefixQuery, index, universe);
    time(`rank ${prefixRows.length} rows for c1:* | parola0`, () => rankRows(prefixQuery, index, prefixRows));

    started = performance.now();
    const { meta, buffers } = encodeIndex(index);
    const decoded = decodeIndex(meta, buffers);
    console.log(`  codec encode+decode (zero-copy, validated): ${(performance.now() - started).toFixed(1)} ms`);
    expect(decoded.lookup('parola0').rowIds.length).toBe(commonRows.length);
  });
});
