import { invalid } from '../../errors';

/**
 * CKAN's name rules for datasets, organizations and groups (name_validator): the format
 * alone, which the catalogue's operations and groups both check; whether a name is taken is
 * each one's own question.
 */
const NAME_PATTERN = /^[a-z0-9_-]+$/;

export function checkNameFormat(name: unknown): string {
  if (name === undefined || name === null || name === '') throw invalid('name', 'Missing value');
  if (typeof name !== 'string') throw invalid('name', 'Must be a string');
  if (name.length < 2) throw invalid('name', 'Must be at least 2 characters long');
  if (name.length > 100) throw invalid('name', 'Name must be a maximum of 100 characters long');
  if (!NAME_PATTERN.test(name)) {
    throw invalid('name', 'Must be purely lowercase alphanumeric (ascii) characters and these symbols: -_');
  }
  return name;
}
