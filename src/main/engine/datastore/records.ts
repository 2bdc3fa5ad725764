import { ValidationError, invalid } from '../../errors';
import type { FieldType } from '../field-types';
import { CoercionError, coerceValue, type StoredValue } from '../values/coerce';

/** Incoming `records` checked and converted to stored values, with CKAN's error shapes. */

export type RecordObject = Record<string, unknown>;

export function asRecordList(raw: unknown): RecordObject[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('records', 'Records has to be a list of dicts');
  raw.forEach((r, i) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) {
      throw invalid('records', i === 0 ? 'The first row is not a json object' : `row "${i}" is not a json object`);
    }
  });
  return raw as RecordObject[];
}

/** Later rows may not bring keys the table does not have (1-based row numbers, as CKAN). */
export function checkNoExtraKeys(records: readonly RecordObject[], columns: ReadonlySet<string>, from = 0): void {
  for (let i = from; i < records.length; i++) {
    const extra = Object.keys(records[i]!).filter((k) => !columns.has(k));
    if (extra.length) throw invalid('records', `row "${i + 1}" has extra keys "${extra.join(', ')}"`);
  }
}

/**
 * Converts the listed columns of every record; missing keys are absent from the result map
 * (the caller decides between NULL and "keep the old value"). Errors name the row.
 */
export function coerceRecords(records: readonly RecordObject[], types: ReadonlyMap<string, FieldType>): Map<string, StoredValue>[] {
  return records.map((record, row) => {
    const out = new Map<string, StoredValue>();
    for (const [key, value] of Object.entries(record)) {
      const type = types.get(key);
      if (!type) continue;
      try {
        out.set(key, coerceValue(value, type));
      } catch (err) {
        if (err instanceof CoercionError) throw new ValidationError({ records: [err.message], records_row: row });
        throw err;
      }
    }
    return out;
  });
}

/**
 * CKAN inserts (datastore_create's records, datastore_upsert with `method: insert`) send every
 * row in one statement, and its error names the loop's last row, not the failing one
 * (`records_row` is `len(records) - 1` in 2.11's upsert_data). Upsert and update go row by
 * row and name the failing row, as Deskstore does everywhere else.
 */
export function asBulkInsertError(err: unknown, recordCount: number): unknown {
  if (err instanceof ValidationError && 'records_row' in err.members) {
    return new ValidationError({ ...err.members, records_row: recordCount - 1 });
  }
  return err;
}
