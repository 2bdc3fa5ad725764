/** A group-by's table as CSV (RFC 4180, comma, UTF-8), the columns as the chart names them. Pure. */
import type { GroupByResult } from '../../../../shared/wire/group-by';

const cell = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function groupsCsv(result: GroupByResult, keyColumns: readonly string[], metricLabel: string): string {
  const header = [...keyColumns, 'count', ...(result.metric === 'count' ? [] : [metricLabel])];
  const lines = result.groups.map((g) => [...g.keys, g.count, ...(result.metric === 'count' ? [] : [g.value])].map(cell).join(','));
  return `${[header.map(cell).join(','), ...lines].join('\r\n')}\r\n`;
}
