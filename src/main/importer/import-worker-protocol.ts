import type { WireError } from '../errors';
import type { CsvImportOptions, CsvImportResult, ImportProgress } from './import-csv';
import type { ImportChoices } from './import-job';
import type { ImportPreview } from '../../shared/wire/import';
import type { TextIndexTask } from './text-index-task';

/** What an import worker is started to do. */
export type ImportWorkerTask =
  | { readonly mode: 'import'; readonly options: Omit<CsvImportOptions, 'onProgress' | 'signal' | 'onSearchable'> }
  | { readonly mode: 'preview'; readonly path: string; readonly choices: ImportChoices }
  | { readonly mode: 'text-index'; readonly task: TextIndexTask };

export type ImportWorkerMessage =
  | { readonly kind: 'progress'; readonly progress: ImportProgress }
  | { readonly kind: 'searchable'; readonly result: CsvImportResult }
  | { readonly kind: 'done'; readonly result: CsvImportResult }
  | { readonly kind: 'preview'; readonly preview: ImportPreview }
  | { readonly kind: 'text-index'; readonly meta: unknown; readonly buffers: Uint8Array[] }
  | { readonly kind: 'failed'; readonly error: WireError };
