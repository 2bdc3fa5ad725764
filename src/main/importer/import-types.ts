/**
 * The importer's types in one module: what a user chooses, what an import is asked to do,
 * how it reports progress and what it ends with. Everything else in importer/ imports them
 * from here, so no two importer modules need each other for a type.
 */
import type { TextSearchLanguage } from '../../shared/text-search-languages';
import type { Delimiter } from '../../shared/delimiters';
import type { RenamedColumn } from '../../shared/import-source';
import type { Message } from '../../shared/messages';
import type { ImportFormat, ImportPhase, ImportType, RepairChoices, RepairReport } from '../../shared/wire/import';

/** What a user chose for an import; everything else is detected. */
export interface ImportChoices {
  readonly encoding?: string;
  readonly delimiter?: Delimiter;
  readonly skipLines?: number;
  readonly types?: Readonly<Record<string, ImportType>>;
  /** Remove spaces and tabs around cells (ISTAT pads codes: `" 001 "`). Default true. */
  readonly trim?: boolean;
  readonly ftsLanguage?: TextSearchLanguage;
  /** What to do with each kind of problem row (default: each kind's default, never skip). */
  readonly repairs?: RepairChoices;
  /** The sheet of a workbook to import (default: the first sheet with a value). */
  readonly sheet?: string;
  /** The file of a zip archive to import (default: the first one Deskstore can read). */
  readonly entry?: string;
}

export interface ImportProgress {
  readonly phase: ImportPhase;
  readonly rows: number;
  /** Bytes of the content read so far (uncompressed for a `.gz`). */
  readonly bytes: number;
  /** The content's size; for a compressed file an estimate (`estimated`). */
  readonly totalBytes: number;
  readonly estimated: boolean;
}

/** Everything an import needs: the file, where the new version goes, and the user's choices. */
export interface ImportOptions extends ImportChoices {
  readonly path: string;
  /** The file's name as the user knows it (an upload's is not on disk); it helps recognise the format. */
  readonly name?: string;
  readonly resourceId: string;
  readonly dir: string;
  readonly generation: number;
  readonly ftsLanguage: TextSearchLanguage;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ImportProgress) => void;
  /** The import worker's own entry: the full-text index is then built in a second worker. */
  readonly textIndexWorker?: URL;
  /** The columns file is written: the generation can be published and searched. */
  readonly onSearchable?: (result: ImportResult) => Promise<void>;
}

/** An import's options without the callbacks: what crosses into an import worker. */
export type ImportTask = Omit<ImportOptions, 'onProgress' | 'signal' | 'onSearchable' | 'textIndexWorker'>;

export interface ImportedField {
  readonly id: string;
  readonly type: ImportType;
  readonly info: { label: string; notes: string };
  readonly reason: Message;
}

export interface ImportResult {
  readonly rows: number;
  readonly fields: ImportedField[];
  readonly renamed: RenamedColumn[];
  readonly format: ImportFormat;
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  readonly sheet?: string;
  readonly entry?: string;
  /** The file's size as given (compressed for a `.gz` or a zip). */
  readonly bytes: number;
  readonly storedBytes: number;
  readonly repairs: RepairReport[];
  readonly warnings: Message[];
  readonly seconds: Record<ImportPhase, number>;
}
