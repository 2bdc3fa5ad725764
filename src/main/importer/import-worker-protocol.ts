import type { WireError } from '../errors';
import type { CsvImportOptions, CsvImportResult, ImportProgress } from './import-csv';
import type { ImportChoices } from './import-job';
import type { ImportPreview } from '../../shared/wire/import';
import type { TextIndexTask } from './text-index-task';
import type { RowChanges } from '../../shared/portal';
import type { TypedImportOptions, TypedImportResult } from './typed-import';

/** What an import worker is started to do. */
export type ImportWorkerTask =
  | { readonly mode: 'import'; readonly options: Omit<CsvImportOptions, 'onProgress' | 'signal' | 'onSearchable'> }
  | { readonly mode: 'preview'; readonly path: string; readonly choices: ImportChoices }
  | { readonly mode: 'text-index'; readonly task: TextIndexTask }
  | { readonly mode: 'typed'; readonly options: Omit<TypedImportOptions, 'onProgress' | 'signal' | 'textIndexWorker'> }
  | { readonly mode: 'diff'; readonly dir: string; readonly before: number; readonly after: number };

export type ImportWorkerMessage =
  | { readonly kind: 'progress'; readonly progress: ImportProgress }
  | { readonly kind: 'searchable'; readonly result: CsvImportResult }
  | { readonly kind: 'done'; readonly result: CsvImportResult }
  | { readonly kind: 'preview'; readonly preview: ImportPreview }
  | { readonly kind: 'text-index'; readonly meta: unknown; readonly buffers: Uint8Array[] }
  | { readonly kind: 'typed-progress'; readonly rows: number }
  | { readonly kind: 'typed-done'; readonly result: TypedImportResult }
  | { readonly kind: 'diff'; readonly changes: RowChanges | null }
  | { readonly kind: 'failed'; readonly error: WireError };
