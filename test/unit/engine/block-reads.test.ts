import { describe, expect, it } from 'vitest';
import { BLOCK_BYTES, blockReads } from '../../../src/main/engine/storage/block-reads';

/** A section of `length` bytes whose reads are counted; out-of-range reads fail as the file's do. */
function section(length: number): { bytes: Buffer; reads: Array<[number, number]>; read: (start: number, end: number) => Buffer } {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + 7) & 0xff;
  const reads: Array<[number, number]> = [];
  return {
    bytes,
    reads,
    read: (start, end) => {
      if (start < 0 || end > length || start > end) throw new Error(`range ${start}-${end} outside section`);
      reads.push([start, end]);
      return Buffer.from(bytes.subarray(start, end)); // a copy, as a file read gives
    },
  };
}

describe('small reads through 4 KB blocks (columns file cells)', () => {
  it('answers every range with the bytes of the section, at the edges and across blocks', () => {
    const length = 10 * BLOCK_BYTES + 123;
    const s = section(length);
    const range = blockReads(length, s.read);
    let seed = 42;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed % n);
    for (let k = 0; k < 5000; k++) {
      const start = random(length + 1);
      const end = Math.min(length, start + random(k % 10 === 0 ? 5 * BLOCK_BYTES : 200));
      expect(range(start, end).equals(s.bytes.subarray(start, end))).toBe(true);
    }
    for (const [start, end] of [[0, 0], [0, 4], [length - 4, length], [BLOCK_BYTES - 2, BLOCK_BYTES + 2], [length, length]]) {
      expect(range(start!, end!).equals(s.bytes.subarray(start, end))).toBe(true);
    }
  });

  it('reads the file once for a page of nearby cells (codes 4 bytes each, 1 row in 20)', () => {
    const length = 1_000_000 * 4;
    const s = section(length);
    const range = blockReads(length, s.read);
    const rows = Array.from({ length: 100 }, (_, i) => 500_000 + i * 20);
    for (const row of rows) expect(range(row * 4, row * 4 + 4).readUInt32LE(0)).toBe(s.bytes.readUInt32LE(row * 4));
    // 100 rows over 2,000 row ids: 8 KB of codes, two or three blocks, not 100 reads.
    expect(s.reads.length).toBeLessThanOrEqual(3);
    for (const [start, end] of s.reads) expect(end - start).toBeLessThanOrEqual(BLOCK_BYTES);
  });

  it('leaves a range outside the section and a large one to the file', () => {
    const length = 3 * BLOCK_BYTES;
    const s = section(length);
    const range = blockReads(length, s.read);
    expect(() => range(length - 2, length + 2)).toThrow(/outside section/);
    expect(() => range(-1, 3)).toThrow(/outside section/);
    const big = blockReads(100 * BLOCK_BYTES, section(100 * BLOCK_BYTES).read);
    expect(big(0, 50 * BLOCK_BYTES).length).toBe(50 * BLOCK_BYTES);
  });
});
