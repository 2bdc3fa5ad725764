import type { ImportChoices } from '../import-types';
import type { RawTable } from '../raw-table';
import type { SpillTarget } from '../row-spill';

/**
 * A reader turns one kind of file into a RawTable (docs/importing.md, "Adding a format"). It
 * finds the header, streams the rows through a RowCollector (which repairs and encodes them),
 * and reports progress; the shared path does everything after that.
 */
export interface ReadRequest {
  readonly path: string;
  /** The file's name as the user knows it (a staged upload's path has none). */
  readonly name: string;
  readonly choices: ImportChoices;
  readonly signal?: AbortSignal;
  /** A preview: stop after about this many bytes of content. */
  readonly sampleBytes?: number;
  readonly onProgress?: (progress: ReadProgress) => void;
  /** An import: rows go to disk a chunk at a time (row-spill.ts) rather than staying in memory. */
  readonly spill?: SpillTarget;
}

export interface ReadProgress {
  readonly rows: number;
  readonly bytes: number;
  readonly totalBytes: number;
  /** The total is an estimate (compressed content). */
  readonly estimated: boolean;
}

export type TableReader = (request: ReadRequest) => Promise<RawTable>;
