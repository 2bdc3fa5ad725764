// Binary persistence of an InvertedIndex: a small JSON-able meta object plus five byte
// buffers the engine writes to a sidecar file. Decoding wraps the buffers without copying
// when they are suitably aligned (typed arrays need 4-byte alignment for Uint32 views).

import { InvertedIndex } from './inverted-index';

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

export function decodeIndex(meta: unknown, buffers: readonly Uint8Array[]): InvertedIndex {
  const m = meta as Partial<EncodedIndexMeta> | null;
  if (!m || m.format !== INDEX_FORMAT) throw new IndexFormatError('not a full-text index');
  if (m.version !== INDEX_FORMAT_VERSION) throw new IndexFormatError(`unsupported full-text index version ${String(m.version)}`);
  if (m.endianness !== 'le' || !LITTLE_ENDIAN) throw new IndexFormatError('full-text index byte order mismatch');
  const termCount = m.termCount;
  const postingCount = m.postingCount;
  if (!Number.isInteger(termCount) || !Number.isInteger(postingCount) || termCount! < 0 || postingCount! < 0) {
    throw new IndexFormatError('bad counts in full-text index meta');
  }
  if (buffers.length !== BUFFER_NAMES.length) throw new IndexFormatError(`expected ${BUFFER_NAMES.length} buffers`);
  const [termBytes, termOffsetBytes, offsetBytes, rowIdBytes, tfs] = buffers as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  if (termBytes.byteLength !== m.termBytesLength) throw new IndexFormatError('termBytes length mismatch');
  const termOffsets = u32View(termOffsetBytes, termCount! + 1, 'termOffsets');
  const offsets = u32View(offsetBytes, termCount! + 1, 'offsets');
  const rowIds = u32View(rowIdBytes, postingCount!, 'rowIds');
  if (tfs.byteLength !== postingCount) throw new IndexFormatError('tfs length mismatch');
  checkOffsets(termOffsets, termBytes.byteLength, 'termOffsets');
  checkOffsets(offsets, postingCount, 'offsets');
  checkPostings(offsets, rowIds);
  return new InvertedIndex(termBytes, termOffsets, offsets, rowIds, tfs);
}
