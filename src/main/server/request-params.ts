/**
 * CKAN's `_get_request_data` (docs/ckan-contract.md §1.2): where an action's parameters come from, in
 * CKAN's order, with its quirks (curl's `-d '{json}'`, single → string / repeated → list,
 * the query string winning over a JSON body for GET-able actions). Pure: the body is
 * already read.
 */
import type { ActionParams, UploadedFile } from '../params/action-params';
import { BadRequestError } from '../errors';
import type { RequestBody } from './body-reader';
import { parseJsonExact, unboxPythonFloats } from '../util/exact-json';
import { pythonRepr } from '../util/python-repr';
import { TOO_DEEP, jsonTextDepthExceeds } from '../util/json-depth';

export interface ParamsInput {
  readonly method: 'GET' | 'POST';
  readonly sideEffectFree: boolean;
  readonly rawQuery: string;
  readonly body: RequestBody;
}

export interface ExtractedParams {
  readonly params: ActionParams;
  /** A `callback` key was present (and removed): JSONP, and the request runs anonymous. */
  readonly callback: boolean;
}

function jsonError(message: string): BadRequestError {
  return new BadRequestError(`Bad request - JSON Error: ${message}`);
}

/** CKAN checks this before looking at the body, so callers do too (no body read for nothing). */
export function assertMethodAllowed(method: 'GET' | 'POST', sideEffectFree: boolean): void {
  if (method === 'GET' && !sideEffectFree) {
    throw jsonError('Invalid request. Please use POST method for your request');
  }
}

/** The action's parameters; the caller has already run assertMethodAllowed. */
export function extractParams(input: ParamsInput): ExtractedParams {
  const { body } = input;
  const query = [...new URLSearchParams(input.rawQuery)];
  let data: unknown;
  if (input.method === 'POST' && body.kind === 'form' && body.fields.length > 0) {
    data = formData(body.fields);
  } else if (query.length > 0 && input.sideEffectFree) {
    data = mixed(query);
  } else if (body.kind === 'raw' && body.text !== '') {
    data = decodeJson(body.text, body.text);
  } else {
    data = {};
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw jsonError(`Request data JSON decoded to ${clip(pythonRepr(data))} but it needs to be a dictionary.`);
  }
  const params = data as ActionParams;
  // Whole floats (`310.0`) stay Python floats only in `records`, where they decide what is
  // stored (util/exact-json.ts); every other parameter is read as plain JSON.
  for (const [key, value] of Object.entries(params)) {
    const plain = key === 'records' ? value : unboxPythonFloats(value);
    if (plain !== value) Object.defineProperty(params, key, { value: plain, enumerable: true, writable: true, configurable: true });
  }
  if (body.kind === 'form') addFiles(params, body.files);
  const callback = Object.prototype.hasOwnProperty.call(params, 'callback');
  if (callback) delete params.callback;
  return { params, callback };
}

/**
 * Werkzeug's `form.values()` yields the first value of each distinct key, so "exactly one
 * field" means one distinct name. With a value of "" or "1" the name itself is JSON: that is
 * what `curl -d '{"a":1}'` sends (urlencoded, the JSON as a field name with no `=`).
 */
function formData(fields: ReadonlyArray<[string, string]>): unknown {
  const first = new Map<string, string>();
  for (const [name, value] of fields) if (!first.has(name)) first.set(name, value);
  if (first.size === 1) {
    const [name, value] = first.entries().next().value!;
    if (value === '' || value === '1') return decodeJson(name, name);
  }
  return mixed(fields);
}

/**
 * Single → string, repeated → list of strings (CKAN's `mixed`). Built with
 * Object.fromEntries so a `__proto__` key stays an ordinary own property.
 */
function mixed(entries: ReadonlyArray<[string, string]>): ActionParams {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of entries) {
    const list = grouped.get(name);
    if (list) list.push(value);
    else grouped.set(name, [value]);
  }
  return Object.fromEntries([...grouped].map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

function decodeJson(text: string, shown: string): unknown {
  // Measured on the text: the exact reader's reviver would overflow the stack first.
  if (jsonTextDepthExceeds(text)) throw jsonError(`Error decoding JSON data. Error: the JSON is ${TOO_DEEP}`);
  let data: unknown;
  try {
    data = parseJsonExact(text);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw jsonError(
      `Error decoding JSON data. Error: JSONDecodeError(${pythonRepr(reason)}) ` +
        `JSON data extracted from the request: ${clip(pythonRepr(shown))}`,
    );
  }
  return data;
}

/** CKAN adds the first file of each field after the data, whichever branch produced it. */
function addFiles(params: ActionParams, files: ReadonlyArray<[string, UploadedFile]>): void {
  const seen = new Set<string>();
  for (const [name, file] of files) {
    if (seen.has(name)) continue;
    seen.add(name);
    Object.defineProperty(params, name, { value: file, enumerable: true, writable: true, configurable: true });
  }
}

/** Error messages echo the request; keep a huge body from becoming a huge error. */
function clip(text: string, max = 500): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
