import { ValidationError } from '../errors';
import { TOO_DEEP, jsonDepthExceeds } from '../util/json-depth';
import { pythonRepr } from '../util/python-repr';

/**
 * CKAN's navl converters for action parameters (docs/ckan-contract.md §1.2 table): values from GET and
 * forms are strings, JSON bodies give real types, and both must end up the same. Each
 * converter returns the value or an error message; schemas collect the messages per key.
 */

export type Converted<T> = { ok: true; value: T } | { ok: false; error: string | Record<string, unknown> };

const ok = <T>(value: T): Converted<T> => ({ ok: true, value });
const fail = (error: string): Converted<never> => ({ ok: false, error });

/** Base-10 integer text or a whole JSON number (`2.0`); `"1.5"`, `1.5`, `"bad"` fail. */
export function toInteger(value: unknown): Converted<number> {
  if (typeof value === 'number' && Number.isInteger(value)) return ok(value);
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return ok(Number.parseInt(value, 10));
  return fail('Invalid integer');
}

export function toNaturalNumber(value: unknown): Converted<number> {
  const n = toInteger(value);
  if (!n.ok) return n;
  return n.value < 0 ? fail('Must be a natural number') : n;
}

/** JSON booleans as they are; strings true/yes/t/y/1 (any case) are true, every other string false. */
export function toBoolean(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return ['true', 'yes', 't', 'y', '1'].includes(value.trim().toLowerCase());
  if (typeof value === 'number') return value !== 0;
  return Boolean(value);
}

/**
 * `fields`, `sort`: a list of strings, or a string split on commas; never JSON-decoded. As
 * CKAN's list_of_strings_or_string words it: anything else is `Not a list`, an item that is
 * not a string `Neither a string nor a list: <item>` (Python's str() of it).
 */
export function toStringList(value: unknown, param: string): Converted<string[]> {
  if (typeof value === 'string')
    return ok(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    );
  if (!Array.isArray(value)) return fail('Not a list');
  const bad = value.findIndex((v) => typeof v !== 'string');
  if (bad < 0) return ok(value as string[]);
  const item: unknown = value[bad];
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    // navl flattens a list of dicts: its keys are fields the schema does not know.
    const key = Object.keys(item)[0] ?? '';
    return { ok: false, error: { __junk: [`The input field [('${param}', ${bad}, '${key}')] was not expected.`] } };
  }
  return fail(`Neither a string nor a list: ${pythonStr(item)}`);
}

/** Python's str() of a decoded JSON value that is not a string. */
function pythonStr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return pythonRepr(value);
}

/** `filters`: an object or list passes; a string must decode as JSON. */
export function toJsonValue(value: unknown): Converted<unknown> {
  if (typeof value !== 'string') return ok(value);
  let decoded: unknown;
  try {
    decoded = JSON.parse(value);
  } catch {
    return fail('Cannot parse JSON');
  }
  return jsonDepthExceeds(decoded) ? fail(`Cannot parse JSON: ${TOO_DEEP}`) : ok(decoded);
}

/** `q`: an object passes; a string is used as an object only if it decodes to one. */
export function toTextOrObject(value: unknown): string | Record<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value === 'string') {
    try {
      const decoded: unknown = JSON.parse(value);
      const isObject = decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded);
      // Too deep to be a column → text map: searched as the text it is.
      if (isObject && !jsonDepthExceeds(decoded)) return decoded as Record<string, unknown>;
    } catch {
      // plain text query
    }
    return value;
  }
  return value === null || value === undefined ? '' : String(value);
}

/** Names in `fields` may be wrapped in double quotes (`"\"author\""` → `author`). */
export function unquoteName(name: string): string {
  return name.length > 1 && name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replace(/""/g, '"') : name;
}

/** A missing, null or empty-string parameter counts as missing for defaults. */
export const isMissing = (value: unknown): boolean => value === undefined || value === null || value === '';

/** The resource an action is about: `resource_id`, or `id` as CKAN also accepts. */
export function resourceIdOf(params: Readonly<Record<string, unknown>>): string {
  const id = isMissing(params.resource_id) ? params.id : params.resource_id;
  if (isMissing(id)) throw new ValidationError({ resource_id: ['Missing value'] });
  return String(id);
}

/** Collects per-parameter errors the way navl reports them (several keys at once). */
/**
 * CKAN's `limit_to_configured_maximum`, the validator after natural_number_validator for
 * datastore_search's `limit` and package_search's `rows`: navl runs it even after the first
 * failed (in 2.10 and 2.11 alike), and its convert_int adds its own word for text Python's
 * int() cannot read, so `limit=bad` gets both messages (seen on CKAN 2.10.10).
 */
export function limitToConfiguredMaximum(errors: SchemaErrors, param: string, value: unknown, converted: number | undefined): void {
  if (converted === undefined && typeof value === 'string' && !/^\s*[+-]?\d+\s*$/.test(value))
    errors.add(param, 'Please enter an integer value');
}

export class SchemaErrors {
  readonly members: Record<string, unknown> = {};

  add(param: string, error: string | Record<string, unknown>): void {
    if (typeof error === 'string') {
      const list = (this.members[param] as string[] | undefined) ?? [];
      list.push(error);
      this.members[param] = list;
    } else {
      Object.assign(this.members, error);
    }
  }

  get any(): boolean {
    return Object.keys(this.members).length > 0;
  }

  /** The value of a conversion, or undefined after recording its error. */
  take<T>(param: string, converted: Converted<T>): T | undefined {
    if (converted.ok) return converted.value;
    this.add(param, converted.error);
    return undefined;
  }
}
