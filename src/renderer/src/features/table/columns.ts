/** Column presentation for the table: label, width and alignment by type. Pure. */
import type { DatastoreField, DatastoreRecord } from '../../../../shared/wire/search';
import { isDateType, isNumericType } from '../../format/cell';

export function columnLabel(field: DatastoreField): string {
  const label = field.info?.label?.replace(/\s+/g, ' ').trim();
  return label || field.id;
}

/** The length (in characters) that 90 % of the sample's values of a column fit in. */
export function typicalLength(field: string, sample: readonly DatastoreRecord[]): number {
  const lengths = sample
    .map((r) => {
      const v = r[field];
      return v === null || v === undefined ? 0 : String(v).length;
    })
    .sort((a, b) => a - b);
  return lengths.length ? lengths[Math.min(lengths.length - 1, Math.floor(lengths.length * 0.9))]! : 0;
}

export function columnWidth(field: DatastoreField, sample: readonly DatastoreRecord[] = []): number {
  if (field.id === '_id') return 76;
  const label = columnLabel(field);
  // two lines of header text, and the longest word on one line (plus the filter button)
  const longestWord = Math.max(...label.split(/\s+/).map((w) => w.length));
  const labelWidth = Math.min(Math.max(label.length * 4.2 + 56, longestWord * 9.4 + 56), 320);
  let base: number;
  if (isNumericType(field.type)) base = 120;
  else if (field.type === 'timestamp' || field.type === 'timestamptz') base = 190;
  else if (isDateType(field.type)) base = 130;
  else if (field.type === 'bool') base = 96;
  else base = 170;
  const dataWidth = Math.min(typicalLength(field.id, sample) * 7.4 + 24, 360);
  return Math.round(Math.max(base, Math.min(Math.max(labelWidth, dataWidth), 360)));
}

export function gridTemplate(fields: readonly DatastoreField[], sample: readonly DatastoreRecord[] = []): string {
  return fields.map((f) => `${columnWidth(f, sample)}px`).join(' ');
}
