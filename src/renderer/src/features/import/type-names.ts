import type { ImportType } from '../../../../shared/wire/import';

/** i18n key of a DataStore column type, for headers and the type pickers. */
export function typeKey(type: string): string {
  switch (type) {
    case 'int':
    case 'int4':
    case 'integer':
      return 'types.int4';
    case 'int8':
    case 'bigint':
      return 'types.int8';
    case 'numeric':
    case 'float8':
    case 'float':
      return 'types.numeric';
    case 'bool':
    case 'boolean':
      return 'types.bool';
    case 'date':
      return 'types.date';
    case 'timestamp':
    case 'timestamptz':
      return 'types.timestamp';
    case 'text':
      return 'types.text';
    default:
      return 'types.other';
  }
}

export const TYPE_CHOICES: readonly ImportType[] = ['text', 'int4', 'int8', 'numeric', 'bool', 'date', 'timestamp'];

export const ENCODINGS: readonly string[] = ['utf-8', 'windows-1252', 'iso-8859-1', 'iso-8859-15', 'utf-16le', 'utf-16be', 'macintosh'];
export const DELIMITERS: readonly string[] = [',', ';', '|', 'tab'];
