import { ValidationError } from '../errors';
import { isTextSearchLanguage } from '../engine/fts';
import type { ImportChoices } from '../importer/import-job';
import { DELIMITER_CHOICES, delimiterFromName } from '../../shared/delimiters';
import { IMPORT_TYPES, isImportType, type ImportType } from '../../shared/wire/import';
import type { ActionParams, UploadedFile } from './types';
import { SchemaErrors, isMissing, toBoolean, toJsonValue, toNaturalNumber } from './validators';

/**
 * Deskstore's own parameters of resource_create/resource_update that steer the load of a
 * file (CKAN ignores unknown keys, so scripts may send them to either). They are never
 * stored as resource fields.
 */
export const LOAD_PARAMS = ['upload', 'deskstore_upload_id', 'deskstore_local_path', 'deskstore_encoding', 'deskstore_delimiter',
  'deskstore_skip_lines', 'deskstore_types', 'deskstore_language', 'deskstore_keep_spaces', 'deskstore_load'];

export function isUploadedFile(value: unknown): value is UploadedFile {
  return value !== null && typeof value === 'object' && (value as UploadedFile).kind === 'upload';
}

export function loadChoices(params: ActionParams): ImportChoices {
  const errors = new SchemaErrors();
  const choices: { -readonly [K in keyof ImportChoices]: ImportChoices[K] } = {};
  if (!isMissing(params.deskstore_encoding)) choices.encoding = String(params.deskstore_encoding);
  if (!isMissing(params.deskstore_delimiter)) {
    const d = delimiterFromName(String(params.deskstore_delimiter));
    if (d) choices.delimiter = d;
    else errors.add('deskstore_delimiter', `Value must be one of ${DELIMITER_CHOICES}`);
  }
  if (!isMissing(params.deskstore_skip_lines)) {
    const n = errors.take('deskstore_skip_lines', toNaturalNumber(params.deskstore_skip_lines));
    if (n !== undefined) choices.skipLines = n;
  }
  if (!isMissing(params.deskstore_types)) {
    const types = errors.take('deskstore_types', toJsonValue(params.deskstore_types));
    if (types !== undefined) {
      if (types === null || typeof types !== 'object' || Array.isArray(types)
        || Object.values(types).some((t) => !isImportType(t))) {
        errors.add('deskstore_types', `An object of column → type, types among ${IMPORT_TYPES.join(', ')}`);
      } else {
        choices.types = types as Record<string, ImportType>;
      }
    }
  }
  if (!isMissing(params.deskstore_language)) {
    const language = String(params.deskstore_language);
    if (isTextSearchLanguage(language)) choices.ftsLanguage = language;
    else errors.add('deskstore_language', 'Value must be one of [english, simple, italian]');
  }
  if (params.deskstore_keep_spaces !== undefined && toBoolean(params.deskstore_keep_spaces)) choices.trim = false;
  if (errors.any) throw new ValidationError(errors.members);
  return choices;
}

/** Only tabular files are loaded into the DataStore from a URL (as xloader's format list). */
export function looksTabular(url: string, format: unknown): boolean {
  const f = String(format ?? '').toLowerCase();
  return ['csv', 'tsv', 'txt', 'text/csv'].includes(f) || /\.(csv|tsv|txt)(\?.*)?$/i.test(url);
}
