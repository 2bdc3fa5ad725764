import type { ColumnChunk, StoredValue } from '../engine/importer-api';
import type { SpilledChunk } from './row-spill';

/** How one column's spilled chunk is typed: raw codes to typed ones, spilled texts to values. */
export interface ChunkTyping {
  readonly remap: Uint32Array | null;
  readonly convert: (text: string) => StoredValue;
}

/**
 * A spilled chunk typed (type-columns.ts decided how): each column's codes remapped where two
 * raw texts became one value, and the values it spilled converted. A column the chunk does
 * not have (added halfway, for extra cells) is NULL in its rows.
 */
export function typedChunk(chunk: SpilledChunk, columns: readonly ChunkTyping[]): ColumnChunk[] {
  return columns.map(({ remap, convert }, c) => {
    const codes = chunk.codes[c] ?? new Uint32Array(chunk.rows);
    if (remap) for (let i = 0; i < codes.length; i++) codes[i] = remap[codes[i]!]!;
    const spilled = chunk.values[c] ?? [];
    return spilled.length ? { codes, values: spilled.map(convert) } : { codes };
  });
}
