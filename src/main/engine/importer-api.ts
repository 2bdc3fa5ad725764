/**
 * The engine's building blocks for code that builds a resource version outside the engine
 * worker: the importer (a file read into typed columns, then the columns file and the SQLite
 * file written) and a portal mirror (a remote table's types). With engine-api.ts (the engine's
 * types and calls) the only engine modules those callers import (eslint.config.js layer rules,
 * test/unit/import-layers.test.ts): what the engine lends them is listed here, once.
 */
export { buildResourceVersion } from './import/build-version';
export { StreamedVersionWriter, type ColumnChunk, type StreamedColumn } from './import/version-writer';
export { SpilledTextIndex } from './import/spilled-text-index';
export type { RunsDescription } from './import/index-runs';
export { TableChunks } from './import/table-chunks';
export type { TextSearchLanguage } from './fts';
export type { StoredValue } from './values/coerce';
export { runTextIndexTask } from './import/text-index-task';
export { Column } from './column-store/column';
export { TableStore } from './column-store/table-store';
export { fieldTypeOf, resolveFieldType } from './field-types';
export { columnsPath, ensureDir, readColumnsFile, sqlitePath } from './storage/resource-files';
export { Spool, SpoolReader } from './storage/spool';
export { CoercionError, coerceValue } from './values/coerce';
export { isValidDate } from './values/datetime';
export { canonicalDecimal, exactFromCanonical, parseInt8Text } from './values/exact-number';
export { importWorkerLimits, isWorkerOutOfMemory } from './worker-limits';
export { diffGenerations } from './versions/diff-generations';
