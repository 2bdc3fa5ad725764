import Papa from 'papaparse';
import { importFileSize } from './file-source';
import { cleanHeader, reportedRenames } from './header';
import type { ImportChoices } from './import-job';
import { dropLines } from './sniff-dialect';
import { forcedTypeOf, sniffFile } from './sniff-file';
import { ColumnTypeInference } from './type-inference';
import { parseAs, trimCell } from './value-parsers';
import type { ImportPreview, PreviewColumn } from '../../shared/wire/import';

/**
 * What an import would do, from the first 256 KB: encoding, delimiter, preamble, cleaned
 * header, the first rows and the types those rows suggest. The UI shows it so the user can
 * correct a choice before the whole file is read (the import itself infers over every row).
 */

const PREVIEW_BYTES = 256 * 1024;
const PREVIEW_ROWS = 20;

export async function previewCsv(path: string, choices: ImportChoices): Promise<ImportPreview> {
  const bytes = importFileSize(path);
  const { isWholeFile, encoding, text, dialect } = await sniffFile(path, choices, PREVIEW_BYTES);
  const body = dropLines(text, dialect.skipLines, dialect.newline);
  const parsed = Papa.parse<string[]>(body, { delimiter: dialect.delimiter, skipEmptyLines: true });
  // A partial sample usually ends inside a row: drop that row.
  const records = isWholeFile ? parsed.data : parsed.data.slice(0, -1);
  const [headerRow = [], ...dataRows] = records;
  const header = cleanHeader(headerRow);
  const trim = choices.trim ?? true;
  const columns = header.columns.map((h, i): PreviewColumn => {
    const inference = new ColumnTypeInference({ decimalComma: dialect.delimiter !== ',' });
    const seen = new Set<string>();
    for (const row of dataRows) {
      const cell = row[i] ?? '';
      if (!seen.has(cell)) {
        seen.add(cell);
        inference.observe(cell);
      }
    }
    const inferred = inference.result();
    const forced = forcedTypeOf(choices.types, h);
    let problem: string | undefined;
    if (forced) {
      const bad = [...seen].find((cell) => {
        try {
          parseAs(forced, cell);
          return false;
        } catch {
          return true;
        }
      });
      if (bad !== undefined) problem = `"${bad}" is not a valid ${forced}`;
    }
    return {
      id: h.id, label: h.label, type: forced ?? inferred.type, reason: forced ? 'chosen by you' : inferred.reason, forced: Boolean(forced),
      ...(problem ? { problem } : {}),
    };
  });
  return {
    encoding,
    delimiter: dialect.delimiter,
    skipLines: dialect.skipLines,
    confidence: dialect.confidence,
    reasons: dialect.reasons,
    columns,
    renamed: reportedRenames(header),
    rows: dataRows.slice(0, PREVIEW_ROWS).map((row) => header.columns.map((_, i) => {
      const cell = row[i];
      if (cell === undefined) return null;
      const value = trim ? trimCell(cell) : cell;
      return value === '' ? null : value;
    })),
    bytes,
    sampledWholeFile: isWholeFile,
  };
}
