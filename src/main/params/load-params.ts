import { ValidationError } from '../errors';
import { isTextSearchLanguage } from '../../shared/text-search-languages';
import type { ImportChoices } from '../importer/import-types';
import { DELIMITER_CHOICES, delimiterFromName, delimiterParam } from '../../shared/delimiters';
import { optional } from '../../shared/optional';
import type { LoadParams } from '../../shared/wire/actions';
import { IMPORT_TYPES, isImportType, repairChoiceProblem, type ImportType, type RepairChoices } from '../../shared/wire/import';
import type { ActionParams } from './action-params';
import { SchemaErrors, isMissing, toBoolean, toJsonValue, toNaturalNumber } from './validators';

/**
 * Deskstore's own parameters of resource_create/resource_update that steer the load of a
 * file (CKAN ignores unknown keys, so scripts may send them to either). They are never
 * stored as resource fields.
 */
export const LOAD_PARAMS = [
  'upload',
  'deskstore_upload_id',
  'deskstore_local_file',
  'deskstore_local_path',
  'deskstore_encoding',
  'deskstore_delimiter',
  'deskstore_skip_lines',
  'deskstore_types',
  'deskstore_language',
  'deskstore_keep_spaces',
  'deskstore_load',
  'deskstore_repairs',
  'deskstore_sheet',
  'deskstore_entry',
];

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
      if (types === null || typeof types !== 'object' || Array.isArray(types) || Object.values(types).some((t) => !isImportType(t))) {
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
  if (!isMissing(params.deskstore_repairs)) {
    const repairs = errors.take('deskstore_repairs', toJsonValue(params.deskstore_repairs));
    if (repairs !== undefined) {
      const entries = repairs !== null && typeof repairs === 'object' && !Array.isArray(repairs) ? Object.entries(repairs) : null;
      const problem =
        entries === null
          ? 'An object of kind → action'
          : entries.map(([k, a]) => repairChoiceProblem(k, String(a))).find((p) => p !== null);
      if (problem) errors.add('deskstore_repairs', problem);
      else choices.repairs = repairs as RepairChoices;
    }
  }
  if (!isMissing(params.deskstore_sheet)) choices.sheet = String(params.deskstore_sheet);
  if (!isMissing(params.deskstore_entry)) choices.entry = String(params.deskstore_entry);
  if (errors.any) throw new ValidationError(errors.members);
  return choices;
}

/** The other way round: choices as the load parameters that ask for them (the CLI sends them to a running server). */
export function loadParamsOf(choices: ImportChoices): LoadParams {
  return {
    ...optional('deskstore_encoding', choices.encoding),
    ...(choices.delimiter !== undefined ? { deskstore_delimiter: delimiterParam(choices.delimiter) } : {}),
    ...optional('deskstore_skip_lines', choices.skipLines),
    ...(choices.types && Object.keys(choices.types).length ? { deskstore_types: choices.types } : {}),
    ...optional('deskstore_language', choices.ftsLanguage),
    ...(choices.trim === false ? { deskstore_keep_spaces: true } : {}),
    ...(choices.repairs && Object.keys(choices.repairs).length ? { deskstore_repairs: choices.repairs } : {}),
    ...optional('deskstore_sheet', choices.sheet),
    ...optional('deskstore_entry', choices.entry),
  };
}
