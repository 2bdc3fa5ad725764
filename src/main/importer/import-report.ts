import { optional } from '../../shared/optional';
import type { ImportRepair, ImportSource } from '../../shared/import-source';
import type { RepairReport } from '../../shared/wire/import';
import type { ImportResult } from './import-types';

/** Kept per repair kind: enough to show where, never the file again. */
const EXAMPLES = 3;
const EXAMPLE_CHARS = 300;

function keptRepair(r: RepairReport): ImportRepair {
  return {
    kind: r.kind,
    action: r.action,
    rows: r.rows,
    lines: r.lines,
    examples: r.examples
      .slice(0, EXAMPLES)
      .map((e) => ({ ...e, raw: e.raw.length > EXAMPLE_CHARS ? `${e.raw.slice(0, EXAMPLE_CHARS - 1)}…` : e.raw })),
    message: r.message,
  };
}

/**
 * What an import read and did, as the resource keeps it (`deskstore.source` in resource_show,
 * the report on the resource page and on the completion screen): the file, its encoding,
 * delimiter and skipped lines, each column's type and why, the repairs with counts and line
 * numbers, the warnings. One place for imports and for mirrors built from a file.
 */
export function importSourceOf(result: ImportResult, file: string): ImportSource {
  return {
    file,
    encoding: result.encoding,
    delimiter: result.delimiter,
    skipLines: result.skipLines,
    bytes: result.bytes,
    importedAt: new Date().toISOString(),
    ...(result.renamed.length ? { renamedColumns: result.renamed } : {}),
    format: result.format,
    ...optional('sheet', result.sheet),
    ...optional('entry', result.entry),
    rows: result.rows,
    columns: result.fields.map((f) => ({ id: f.id, label: f.info.label, type: f.type, reason: f.reason })),
    repairs: result.repairs.map(keptRepair),
    warnings: result.warnings,
  };
}
