import type { Column } from '../column-store/column';
import { delimitedCell, jsonCell, writeCell } from '../values/encode';
import { pgFloat4Text } from '../values/pg-floats';
import type { RecordsFormat } from './search-request';

/** One output column of a search: `_id`, a table column, or a rank score. */
export type OutputColumn =
  | { readonly id: string; readonly typeName: 'int'; readonly kind: 'id'; readonly info?: undefined }
  | {
      readonly id: string;
      readonly typeName: string;
      readonly kind: 'column';
      readonly column: Column;
      readonly info?: Record<string, unknown>;
    }
  | {
      readonly id: string;
      readonly typeName: 'float';
      readonly kind: 'score';
      readonly score: (rowId: number) => number;
      readonly info?: undefined;
    };

function scoreText(score: number): string {
  // `rank` is ts_rank's float4 on CKAN: its shortest float4 digits (`0.057308756`, `0.07642204`).
  return pgFloat4Text(score);
}

function jsonValue(column: OutputColumn, rowId: number, forWrite = false): string {
  switch (column.kind) {
    case 'id':
      return String(rowId);
    case 'score':
      return scoreText(column.score(rowId));
    case 'column':
      return (forWrite ? writeCell : jsonCell)(column.column.valueOf(rowId), column.column.type.storage);
  }
}

function textValue(column: OutputColumn, rowId: number, delimiter: string): string {
  switch (column.kind) {
    case 'id':
      return String(rowId);
    case 'score':
      return scoreText(column.score(rowId));
    case 'column':
      return delimitedCell(column.column.valueOf(rowId), column.column.type.storage, delimiter);
  }
}

/**
 * The `records` member as text: a JSON list for objects/lists, or the csv/tsv string itself
 * (no header, a newline after every row, docs/ckan-contract.md §3.9).
 */
export function writeRecords(rowIds: Uint32Array, columns: readonly OutputColumn[], format: RecordsFormat, writeValues = false): string {
  const parts: string[] = new Array(rowIds.length);
  if (format === 'objects') {
    const keys = columns.map((c) => `${JSON.stringify(c.id)}:`);
    for (let i = 0; i < rowIds.length; i++) {
      let record = '{';
      for (let c = 0; c < columns.length; c++) {
        record += (c ? ',' : '') + keys[c] + jsonValue(columns[c]!, rowIds[i]!);
      }
      parts[i] = `${record}}`;
    }
    return `[${parts.join(',')}]`;
  }
  if (format === 'lists') {
    for (let i = 0; i < rowIds.length; i++) parts[i] = `[${columns.map((c) => jsonValue(c, rowIds[i]!, writeValues)).join(',')}]`;
    return `[${parts.join(',')}]`;
  }
  const delimiter = format === 'csv' ? ',' : '\t';
  for (let i = 0; i < rowIds.length; i++) {
    parts[i] = `${columns.map((c) => textValue(c, rowIds[i]!, delimiter)).join(delimiter)}\n`;
  }
  return parts.join('');
}
