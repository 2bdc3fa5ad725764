import type { StorageKind } from '../field-types';
import type { StoredValue } from './coerce';

/**
 * A cell as text for the full-text document, the way CKAN's trigger sees it through
 * `row_to_json`: timestamps keep their `T`, booleans read `true`/`false`, arrays and JSON are
 * their JSON text (docs/ckan-contract.md §3.4). NULL contributes nothing.
 */
export function documentText(value: StoredValue, storage: StorageKind): string {
  if (value === null) return '';
  if (storage === 'bool') return value ? 'true' : 'false';
  return String(value);
}
