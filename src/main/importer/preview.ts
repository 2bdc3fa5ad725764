import type { ImportPreview, PreviewColumn } from '../../shared/wire/import';
import { optional } from '../../shared/optional';
import { importFileSize } from './file-source';
import { formatOf } from './formats';
import { cleanHeader, reportedRenames } from './header';
import type { ImportChoices } from './import-types';
import { forcedTypeOf } from './sniff-file';
import { decideType, forcedTypeProblem, inferColumn } from './type-columns';

/**
 * What an import would do, from the first 256 KB of content: the same reader and the same
 * repairs as the import, the cleaned header, the first rows and the types those rows suggest.
 * The UI shows it so the user can correct a choice before the whole file is read (the import
 * itself infers over every row).
 */
const PREVIEW_BYTES = 256 * 1024;
const PREVIEW_ROWS = 20;

export async function previewFile(path: string, name: string, choices: ImportChoices): Promise<ImportPreview> {
  const bytes = importFileSize(path);
  const format = await formatOf(path, name);
  const table = await format.read({ path, name, choices, sampleBytes: PREVIEW_BYTES });
  const { layout } = table;
  const header = cleanHeader([...table.header]);
  const columns = header.columns.map((h, i): PreviewColumn => {
    const raw = table.columns[i]!;
    const decision = decideType(inferColumn(raw, layout.decimalComma), forcedTypeOf(choices.types, h), table.fileTypes?.[i]);
    const problem = decision.forced ? forcedTypeProblem(raw, decision.type) : undefined;
    return {
      id: h.id,
      label: h.label,
      type: decision.type,
      reason: decision.reason,
      forced: decision.forced,
      ...optional('problem', problem),
    };
  });
  const shown = Math.min(PREVIEW_ROWS, table.rows);
  const rows: (string | null)[][] = [];
  for (let r = 1; r <= shown; r++) {
    rows.push(
      table.columns.map((c) => {
        const value = c.values[c.codes[r]!]!;
        return value === '' ? null : value;
      }),
    );
  }
  return {
    format: layout.format,
    encoding: layout.encoding,
    delimiter: layout.delimiter,
    skipLines: layout.skipLines,
    headerLine: layout.headerLine,
    confidence: layout.confidence,
    reasons: layout.reasons,
    warnings: table.warnings,
    columns,
    renamed: reportedRenames(header),
    rows,
    repairs: table.repairs,
    ...optional('sheets', layout.sheets),
    ...optional('sheet', layout.sheet),
    ...optional('entries', layout.entries),
    ...optional('entry', layout.entry),
    bytes,
    sampledWholeFile: table.complete,
  };
}
