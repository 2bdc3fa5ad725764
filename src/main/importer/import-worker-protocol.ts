import type { WireError } from '../errors';
import type { EncodedTextIndex, TextIndexTask } from '../engine/engine-api';
import type { Message } from '../../shared/messages';
import type { ImportPreview } from '../../shared/wire/import';
import type { RowChanges } from '../../shared/portal';
import type { ImportChoices, ImportProgress, ImportResult, ImportTask } from './import-types';
import type { TypedImportOptions, TypedImportResult } from './typed-import';

/** What an import worker is started to do. */
export type ImportWorkerTask =
  | { readonly mode: 'import'; readonly options: ImportTask }
  | { readonly mode: 'preview'; readonly path: string; readonly name: string; readonly choices: ImportChoices }
  | { readonly mode: 'text-index'; readonly task: TextIndexTask }
  | { readonly mode: 'typed'; readonly options: Omit<TypedImportOptions, 'onProgress' | 'signal' | 'textIndexWorker'> }
  | { readonly mode: 'diff'; readonly dir: string; readonly before: number; readonly after: number }
  /** An import's second core (import-helper.ts): it then answers the import's messages. */
  | { readonly mode: 'helper' };

export type ImportWorkerMessage =
  | { readonly kind: 'progress'; readonly progress: ImportProgress }
  | { readonly kind: 'searchable'; readonly result: ImportResult }
  | { readonly kind: 'done'; readonly result: ImportResult }
  | { readonly kind: 'preview'; readonly preview: ImportPreview }
  | ({ readonly kind: 'text-index' } & EncodedTextIndex)
  | { readonly kind: 'typed-progress'; readonly rows: number }
  | { readonly kind: 'typed-done'; readonly result: TypedImportResult }
  | { readonly kind: 'diff'; readonly changes: RowChanges | null }
  /** `worded`: the Message of an ImportInputError, which the error's wire form does not carry. */
  | { readonly kind: 'failed'; readonly error: WireError; readonly worded?: Message };
