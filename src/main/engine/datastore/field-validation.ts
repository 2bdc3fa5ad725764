import { isPythonFloat } from '../../util/exact-json';
import { ValidationError, invalid } from '../../errors';
import { resolveFieldType, type FieldType } from '../field-types';

/**
 * datastore_create's checks on `fields` and its type guessing (docs/ckan-contract.md §6), with CKAN's
 * error keys and wording.
 */

export interface RequestedField {
  readonly id: string;
  readonly type: FieldType | null; // null: guess from the first record
  readonly info?: Record<string, unknown>;
}

const MAX_NAME_LENGTH = 63;

export function isValidFieldName(name: string): boolean {
  return name !== '' && name === name.trim() && !name.startsWith('_') && !name.includes('"') && !/[\u0000-\u001f\u007f]/.test(name);
}

export function checkFieldName(name: string): void {
  if (!isValidFieldName(name)) throw invalid('fields', `"${name}" is not a valid field name`);
  if ([...name].length > MAX_NAME_LENGTH) {
    throw invalid('fields', `Column heading "${name}" exceeds limit of ${MAX_NAME_LENGTH} characters.`);
  }
}

export function parseRequestedFields(raw: unknown): RequestedField[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw invalid('fields', 'Not a list');
  if (raw.some((f) => f === null || typeof f !== 'object' || Array.isArray(f))) {
    throw invalid('fields', 'Each field must be an object with an "id"');
  }
  // The schema's `id: [not_empty]` reports per field, in a list aligned with `fields`.
  const idErrors = raw.map((f) => {
    const id = (f as Record<string, unknown>).id;
    return id === undefined || id === null || id === '' ? { id: ['Missing value'] } : {};
  });
  if (idErrors.some((e) => 'id' in e)) throw new ValidationError({ fields: idErrors });
  const seen = new Set<string>();
  return raw.map((f) => {
    const { id: rawId, type, info } = f as Record<string, unknown>;
    const id = String(rawId);
    checkFieldName(id);
    // Case-insensitive: SQLite, which stores the table, folds ASCII case in column names.
    if (seen.has(id.toLowerCase())) throw invalid('field', 'Duplicate column names are not supported');
    seen.add(id.toLowerCase());
    let resolved: FieldType | null = null;
    if (type !== undefined && type !== null && type !== '') {
      resolved = typeof type === 'string' ? resolveFieldType(type) : null;
      if (!resolved) throw invalid('fields', `"${String(type)}" is not a valid field type`);
    }
    const infoObject = info && typeof info === 'object' && !Array.isArray(info) ? (info as Record<string, unknown>) : undefined;
    return { id, type: resolved, ...(infoObject ? { info: infoObject } : {}) };
  });
}

const INTEGER_TEXT = /^-?\d+$/;
const FLOAT_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TIMESTAMP_FORMATS = [
  /^\d{4}-\d{2}-\d{2}$/,
  /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/,
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/,
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/,
  /^\d{2}\/\d{2}\/\d{4}$/,
  /^\d{2}-\d{2}-\d{4}$/,
];

/** CKAN's `_guess_type` on the first record's value (docs/ckan-contract.md §6). */
export function guessType(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (isPythonFloat(value)) return 'float'; // `310.0`: a Python float
  if (typeof value === 'bigint') return 'int'; // beyond 2^53: a Python int
  if (typeof value === 'object') return 'json';
  if (typeof value === 'boolean') return 'int';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'string') {
    if (INTEGER_TEXT.test(value)) return 'int';
    if (FLOAT_TEXT.test(value)) return 'numeric';
    if (TIMESTAMP_FORMATS.some((re) => re.test(value))) return 'timestamp';
  }
  return 'text';
}

export function checkAliasName(alias: string): void {
  if (alias === '' || alias.includes('%') || alias.includes('"') || alias.startsWith('_') || alias !== alias.trimStart()) {
    throw invalid('alias', `"${alias}" is not a valid alias name`);
  }
}
