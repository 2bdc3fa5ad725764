import { fieldTypeOf, Spool, SpoolReader, TableChunks, type StoredValue } from '../engine/importer-api';
import type { ImportType } from '../../shared/wire/import';
import { RowSpillReader } from './row-spill';
import { converterFor } from './type-columns';
import type { InferredColumn } from './type-inference';
import { typedChunk } from './typed-chunks';

/**
 * What the import's second worker needs to write the SQLite table file from the spilled rows
 * (import-helper.ts) while the first writes the columns file from the same rows: where the
 * spill is, and how each column is typed (the same typing, type-columns.ts).
 */
export interface TableJob {
  readonly spill: { readonly path: string; readonly length: number; readonly chunks: number };
  readonly path: string;
  readonly table: string;
  readonly columns: readonly {
    readonly id: string;
    readonly type: ImportType;
    readonly inferred: InferredColumn;
    readonly forced?: ImportType;
    readonly dictionary: readonly StoredValue[];
    readonly entries: number;
    readonly remap: Uint32Array | null;
  }[];
}

/** Writes the table file of `job`; returns its size. */
export function writeTableFromSpill(job: TableJob): number {
  const spool = Spool.open(job.spill.path, job.spill.length);
  const table = new TableChunks(
    job.path,
    job.table,
    job.columns.map((c) => ({ id: c.id, type: fieldTypeOf(c.type), dictionary: c.dictionary, entries: c.entries })),
  );
  try {
    const typing = job.columns.map((c) => ({ remap: c.remap, convert: converterFor(c.id, c.inferred, c.forced) }));
    const reader = new RowSpillReader(new SpoolReader(spool), job.spill.chunks);
    for (let chunk = reader.next(); chunk; chunk = reader.next()) table.add(chunk.rows, typedChunk(chunk, typing));
  } catch (err) {
    table.abort();
    throw err;
  } finally {
    spool.close();
  }
  return table.finish();
}
