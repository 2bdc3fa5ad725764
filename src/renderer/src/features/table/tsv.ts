/**
 * Cells as tab-separated text for the clipboard, the way spreadsheets paste it: tabs and line
 * breaks inside a value are quoted (with quotes doubled), empty cells stay empty. Pure.
 */
export function tsvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[\t\n\r"]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function rowsAsTsv(columns: readonly string[], rows: readonly Readonly<Record<string, unknown>>[], header = false): string {
  const lines = rows.map((r) => columns.map((c) => tsvCell(r[c])).join('\t'));
  return [...(header ? [columns.map(tsvCell).join('\t')] : []), ...lines].join('\n');
}

/** One record as two lines: the column names, then the values. */
export function rowAsTsv(columns: readonly string[], record: Readonly<Record<string, unknown>>): string {
  return rowsAsTsv(columns, [record], true);
}
