import { CoercionError, coerceValue, type fieldTypeOf } from '../engine/importer-api';
import type { StoredValue } from '../engine/engine-api';
import { parseJsonExact } from '../util/exact-json';
import { jsonDepthExceeds } from '../util/json-depth';

/**
 * One cell of a portal's records, as the portal wrote it in JSON, → what its column stores
 * (docs/portal.md, "Values"). A mirror must not change a value, so nothing here goes through a
 * JavaScript number that could lose something:
 * - numeric and int8: the number's own text (`310.00`, `-12.340`, every digit of
 *   `123456789012345678901234567890.123456789`), or the string CKAN 2.10's SQL answers with;
 * - json: the exact text the portal stored (Python's `json.dumps` on CKAN: `{"a": 100.0}`);
 * - every other type: the decoded value through the engine's own coercion, as a
 *   datastore_upsert of it would.
 */
export function portalCell(source: string, type: ReturnType<typeof fieldTypeOf>): StoredValue {
  if (source === 'null') return null;
  const first = source.charCodeAt(0);
  const isNumber = first === 45 || (first >= 48 && first <= 57);
  if (type.storage === 'exact' && isNumber) return coerceValue(source, type);
  if (type.storage === 'json') {
    const value: unknown = JSON.parse(source);
    if (jsonDepthExceeds(value)) throw new CoercionError('the JSON value nests too deeply');
    return source;
  }
  return coerceValue(parseJsonExact(source), type);
}
