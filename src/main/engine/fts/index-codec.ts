// Binary persistence of an InvertedIndex: a small JSON-able meta object plus five byte
// buffers the engine writes to a sidecar file. Decoding wraps the buffers without copying
// when they are suitably aligned (typed arrays need 4-byte alignment for Uint32 views).

import { InvertedIndex, type PostingSource } from './inverted-index';
import type { PostingList } from './text-index-reader';

export const INDEX_FORMAT = 'deskstore-fts-csr';
export const INDEX_FORMAT_VERSION = 1;

export interface EncodedIndexMeta {
  format: typeof INDEX_FORMAT;
  version: number;
  /** Byte order of the Uint32 buffers (always little-endian). */
  endianness: 'le';
  termCount: number;
  postingCount: number;
  termBytesLength: number;
  /** Names of the buffers, in order. */
  buffers: readonly string[];
}

const BUFFER_NAMES = ['termBytes', 'termOffsets', 'offsets', 'rowIds', 'tfs'] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export class IndexFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IndexFormatError';
  }
}

const bytesOf = (a: Uint8Array | Uint32Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function encodeIndex(index: InvertedIndex): { meta: EncodedIndexMeta; buffers: Uint8Array[] } {
  if (!LITTLE_ENDIAN) throw new Error('index encoding assumes a little-endian platform');
  return {
    meta: {
      format: INDEX_FORMAT,
      version: INDEX_FORMAT_VERSION,
      endianness: 'le',
      termCount: index.termCount,
      postingCount: index.postingCount,
      termBytesLength: index.termBytes.length,
      buffers: BUFFER_NAMES,
    },
    buffers: [bytesOf(index.termBytes), bytesOf(index.termOffsets), bytesOf(index.offsets), bytesOf(index.rowIds), bytesOf(index.tfs)],
  };
}

function u32View(bytes: Uint8Array, count: number, name: string): Uint32Array {
  if (bytes.byteLength !== count * 4) throw new IndexFormatError(`${name}: expected ${count * 4} bytes, got ${bytes.byteLength}`);
  if (bytes.byteOffset % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset, count);
  const copy = new Uint8Array(bytes.byteLength); // unaligned slice of a file buffer
  copy.set(bytes);
  return new Uint32Array(copy.buffer, 0, count);
}

/** Checks an ascending offset table that must end at `total`. O(n), cheap next to I/O. */
function checkOffsets(table: Uint32Array, total: number, name: string): void {
  if (table[0] !== 0) throw new IndexFormatError(`${name}: must start at 0`);
  for (let i = 1; i < table.length; i++) {
    if (table[i]! < table[i - 1]!) throw new IndexFormatError(`${name}: not ascending at ${i}`);
  }
  if (table[table.length - 1] !== total) throw new IndexFormatError(`${name}: does not end at ${total}`);
}

/** Row ids must ascend within each term: query evaluation relies on it (~20 ms per 20M). */
function checkPostings(offsets: Uint32Array, rowIds: Uint32Array): void {
  for (let t = 0; t + 1 < offsets.length; t++) {
    const end = offsets[t + 1]!;
    let prev = 0;
    for (let k = offsets[t]!; k < end; k++) {
      const row = rowIds[k]!;
      if (row <= prev) throw new IndexFormatError(`rowIds: not ascending in term ${t}`);
      prev = row;
    }
  }
}

/** The meta's format, version, byte order and counts, checked before any buffer is read. */
function checkMeta(meta: unknown, bufferCount: number): { termCount: number; postingCount: number; termBytesLength: number } {
  const m = meta as Partial<EncodedIndexMeta> | null;
  if (!m || m.format !== INDEX_FORMAT) throw new IndexFormatError('not a full-text index');
  if (m.version !== INDEX_FORMAT_VERSION) throw new IndexFormatError(`unsupported full-text index version ${String(m.version)}`);
  if (m.endianness !== 'le' || !LITTLE_ENDIAN) throw new IndexFormatError('full-text index byte order mismatch');
  const { termCount, postingCount, termBytesLength } = m;
  if (!Number.isInteger(termCount) || !Number.isInteger(postingCount) || termCount! < 0 || postingCount! < 0) {
    throw new IndexFormatError('bad counts in full-text index meta');
  }
  if (bufferCount !== BUFFER_NAMES.length) throw new IndexFormatError(`expected ${BUFFER_NAMES.length} buffers`);
  return { termCount: termCount!, postingCount: postingCount!, termBytesLength: termBytesLength ?? -1 };
}

export function decodeIndex(meta: unknown, buffers: readonly Uint8Array[]): InvertedIndex {
  const { termCount, postingCount, termBytesLength } = checkMeta(meta, buffers.length);
  const [termBytes, termOffsetBytes, offsetBytes, rowIdBytes, tfs] = buffers as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  if (termBytes.byteLength !== termBytesLength) throw new IndexFormatError('termBytes length mismatch');
  const termOffsets = u32View(termOffsetBytes, termCount + 1, 'termOffsets');
  const offsets = u32View(offsetBytes, termCount + 1, 'offsets');
  const rowIds = u32View(rowIdBytes, postingCount, 'rowIds');
  if (tfs.byteLength !== postingCount) throw new IndexFormatError('tfs length mismatch');
  checkOffsets(termOffsets, termBytes.byteLength, 'termOffsets');
  checkOffsets(offsets, postingCount, 'offsets');
  checkPostings(offsets, rowIds);
  return new InvertedIndex(termBytes, termOffsets, offsets, rowIds, tfs);
}

/** A section of the file the index lies in: read whole, or a byte range of it. */
export interface IndexSections {
  whole(section: number): Uint8Array;
  range(section: number, start: number, end: number): Uint8Array;
  /** What a damaged index is reported as when a query finds it (a storage error). */
  damaged(err: unknown): Error;
}

/** Postings read on demand that are kept, at most (a repeated query's lists stay in memory). */
const POSTINGS_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The index as a first `q` needs it: the term table (lexemes and where each one's postings
 * are) read and checked at once, a term's postings read from the file when a query asks for
 * them, and checked then (row ids ascend within each term). A restarted server's first search
 * reads a few megabytes of terms and the lists of its words, not every posting of the table.
 */
export function openIndex(meta: unknown, sections: readonly number[], file: IndexSections): InvertedIndex {
  const { termCount, postingCount, termBytesLength } = checkMeta(meta, sections.length);
  const [termBytesAt, termOffsetsAt, offsetsAt, rowIdsAt, tfsAt] = sections as [number, number, number, number, number];
  const termBytes = file.whole(termBytesAt);
  if (termBytes.byteLength !== termBytesLength) throw new IndexFormatError('termBytes length mismatch');
  const termOffsets = u32View(file.whole(termOffsetsAt), termCount + 1, 'termOffsets');
  const offsets = u32View(file.whole(offsetsAt), termCount + 1, 'offsets');
  checkOffsets(termOffsets, termBytes.byteLength, 'termOffsets');
  checkOffsets(offsets, postingCount, 'offsets');
  const cache = new Map<string, PostingList>();
  let cachedBytes = 0;
  const source: PostingSource = {
    count: postingCount,
    read: (a, b, firstTerm, endTerm) => {
      try {
        return read(a, b, firstTerm, endTerm);
      } catch (err) {
        throw file.damaged(err);
      }
    },
    whole: () => {
      try {
        return whole();
      } catch (err) {
        throw file.damaged(err);
      }
    },
  };
  function read(a: number, b: number, firstTerm: number, endTerm: number): PostingList {
    const key = `${a}:${b}`;
    const hit = cache.get(key);
    if (hit) {
      cache.delete(key);
      cache.set(key, hit); // most recently used last
      return hit;
    }
    const rowIds = u32View(file.range(rowIdsAt, a * 4, b * 4), b - a, 'rowIds');
    const tfs = file.range(tfsAt, a, b);
    if (tfs.byteLength !== b - a) throw new IndexFormatError('tfs length mismatch');
    const part = offsets.subarray(firstTerm, endTerm + 1).map((o) => o - a);
    checkPostings(part, rowIds);
    const list = { rowIds, tfs };
    cache.set(key, list);
    cachedBytes += (b - a) * 5;
    for (const [k, v] of cache) {
      if (cachedBytes <= POSTINGS_CACHE_BYTES) break;
      cache.delete(k);
      cachedBytes -= v.rowIds.length * 5;
    }
    return list;
  }
  function whole(): { rowIds: Uint32Array; tfs: Uint8Array } {
    const rowIds = u32View(file.whole(rowIdsAt), postingCount, 'rowIds');
    const tfs = file.whole(tfsAt);
    if (tfs.byteLength !== postingCount) throw new IndexFormatError('tfs length mismatch');
    checkPostings(offsets, rowIds);
    return { rowIds, tfs };
  }
  return new InvertedIndex(termBytes, termOffsets, offsets, source);
}
