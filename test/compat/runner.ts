/**
 * The runner of Deskstore's own CKAN compatibility suite (test/compat/README.md): it loads
 * the cases (data, each naming the CKAN test or source line it comes from), creates each
 * case's datasets, resources and tables through the action API as any CKAN client would,
 * sends the case's requests and checks the answers. It speaks only HTTP, so the same cases
 * run against Deskstore (compat.test.ts) and against a real CKAN (COMPAT_BASE=…).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CASES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'cases');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export interface CompatRequest {
  readonly method?: 'GET' | 'POST';
  /** `/api/3/action/<action>` unless `path` is given. */
  readonly action?: string;
  readonly path?: string;
  /** Query string pairs; a list repeats the key. */
  readonly query?: Readonly<Record<string, string | readonly string[]>>;
  /** A JSON body (POST). */
  readonly json?: Json;
  /** An urlencoded form body (POST). */
  readonly form?: Readonly<Record<string, string>>;
  /** A multipart body: fields, and one file under `upload`. */
  readonly multipart?: { readonly fields: Readonly<Record<string, string>>; readonly file?: UploadSpec };
  /** A raw body, sent as written, with `contentType` if given. */
  readonly body?: string;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** `sysadmin` sends the token in `Authorization`; the default is anonymous. */
  readonly auth?: 'sysadmin' | 'anonymous';
}

export interface UploadSpec {
  readonly name: string;
  /** The file's text (UTF-8). */
  readonly text: string;
}

export interface CompatExpect {
  readonly status?: number;
  /** Prefix of Content-Type, case-insensitive. */
  readonly contentType?: string;
  /** Response headers that must equal these values (names case-insensitive); null = absent. */
  readonly headers?: Readonly<Record<string, string | null>>;
  /** The whole body, byte for byte (as UTF-8 text). */
  readonly text?: string;
  readonly textStartsWith?: string;
  readonly textContains?: readonly string[];
  /** The whole body parsed as JSON, deep-equal. */
  readonly json?: Json;
  /** Listed object keys (recursively) must match; arrays must have the same length. */
  readonly subset?: Json;
  /** Paths (`result.records[0]["the year"]`) that must equal these values. */
  readonly paths?: Readonly<Record<string, Json>>;
  /** Paths that must not exist. */
  readonly absent?: readonly string[];
  /** Lengths of arrays or strings at these paths. */
  readonly lengths?: Readonly<Record<string, number>>;
  /** Exact key lists of the objects at these paths, in order. */
  readonly keys?: Readonly<Record<string, readonly string[]>>;
}

export type ExpectOverride = { readonly [K in keyof CompatExpect]?: CompatExpect[K] | null };

/** The main expectation with a target's overrides applied. */
function overridden(expect: CompatExpect, override: ExpectOverride | null | undefined): CompatExpect {
  if (!override) return expect;
  const merged: Record<string, unknown> = { ...expect, ...override };
  for (const [key, value] of Object.entries(override)) if (value === null) delete merged[key];
  return merged;
}

export interface CompatStep {
  readonly note?: string;
  readonly request: CompatRequest;
  readonly expect: CompatExpect;
  /** Values of the answer kept for later steps as `{{name}}`: `{name: "result.id"}`. */
  readonly capture?: Readonly<Record<string, string>>;
}

export interface TableSpec {
  readonly fields?: Json;
  readonly records?: Json;
  readonly primary_key?: Json;
  readonly aliases?: Json;
  readonly indexes?: Json;
}

export interface ResourceSpec {
  readonly id: string;
  readonly name?: string;
  readonly url_type?: string | null;
  readonly format?: string;
  readonly upload?: UploadSpec;
  readonly datastore?: TableSpec;
  readonly [key: string]: Json | TableSpec | UploadSpec | undefined;
}

export interface DatasetSpec {
  readonly name: string;
  readonly resources?: readonly ResourceSpec[];
  readonly [key: string]: Json | readonly ResourceSpec[] | undefined;
}

export interface CompatCase {
  readonly id: string;
  /** The CKAN test or source line this behaviour comes from, with the tag read. */
  readonly source: string;
  readonly note?: string;
  readonly given?: {
    readonly organizations?: readonly JsonObject[];
    readonly groups?: readonly JsonObject[];
    readonly datasets?: readonly DatasetSpec[];
  };
  readonly steps: readonly CompatStep[];
  /** Only Deskstore has this (an extension): why, and the case is skipped against CKAN. */
  readonly deskstore_only?: string;
  /**
   * How CKAN 2.10 differs: skipped with a reason, or per step the expectations that replace
   * the main ones (a null value drops that check; a null step keeps the main expectation).
   */
  readonly ckan_2_10?: { readonly skip?: string; readonly note?: string; readonly steps?: readonly (ExpectOverride | null)[] };
}

export interface Target {
  readonly base: string;
  readonly token: string;
  /** `deskstore`, or `ckan-2.10` for a real CKAN 2.10 (uses the ckan_2_10 expectations). */
  readonly kind: 'deskstore' | 'ckan-2.10';
}

export function loadCases(dir = CASES_DIR): { file: string; case: CompatCase }[] {
  const seen = new Set<string>();
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const list = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CompatCase[];
      return list.map((c) => {
        if (!c.id || !c.source || !Array.isArray(c.steps) || c.steps.length === 0) {
          throw new Error(`${file}: case ${c.id ?? '?'} needs an id, a source and steps`);
        }
        if (seen.has(c.id)) throw new Error(`${file}: duplicate case id ${c.id}`);
        seen.add(c.id);
        return { file, case: c };
      });
    });
}

/** Why a case does not run against this target, or null. */
export function skipReason(c: CompatCase, target: Target): string | null {
  if (target.kind === 'deskstore') return null;
  if (c.deskstore_only) return `Deskstore only: ${c.deskstore_only}`;
  return c.ckan_2_10?.skip ?? null;
}

// ---------------------------------------------------------------------------------------------
// Placeholders: `{{res}}` (a fresh UUID for names starting with `res` or `id`), `{{pkg}}`
// (a fresh dataset-like name), `{{base}}` (the server), and values captured by earlier steps.

class Names {
  private readonly values = new Map<string, string>();
  private readonly suffix = randomBytes(3).toString('hex');

  constructor(base: string) {
    this.values.set('base', base);
  }

  set(name: string, value: string): void {
    this.values.set(name, value);
  }

  get(name: string): string {
    let value = this.values.get(name);
    if (value === undefined) {
      value = /^(res|id)/.test(name) ? randomUUID() : `${name.toLowerCase()}-${this.suffix}`;
      this.values.set(name, value);
    }
    return value;
  }

  fill<T>(value: T): T {
    if (typeof value === 'string') {
      const whole = /^\{\{([\w.-]+)\}\}$/.exec(value);
      if (whole) return this.get(whole[1]!) as T;
      return value.replace(/\{\{([\w.-]+)\}\}/g, (_, name: string) => this.get(name)) as T;
    }
    if (Array.isArray(value)) return value.map((v: unknown) => this.fill(v)) as T;
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [this.fill(k), this.fill(v)])) as T;
    }
    return value;
  }
}

// ---------------------------------------------------------------------------------------------
// HTTP

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
  readonly jsonOk: boolean;
}

function buildUrl(base: string, req: CompatRequest): string {
  const path = req.path ?? `/api/3/action/${req.action ?? ''}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) {
    for (const item of typeof v === 'string' ? [v] : v) params.append(k, item);
  }
  const qs = params.toString();
  return `${base}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`;
}

export async function send(target: Target, req: CompatRequest): Promise<Answer> {
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  if (req.auth === 'sysadmin') headers.Authorization = target.token;
  let body: string | FormData | undefined;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['Content-Type'] = 'application/json';
  } else if (req.form) {
    body = new URLSearchParams(req.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (req.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(req.multipart.fields)) form.set(k, v);
    if (req.multipart.file) form.set('upload', new Blob([req.multipart.file.text]), req.multipart.file.name);
    body = form;
  } else if (req.body !== undefined) {
    body = req.body;
  }
  if (req.contentType) headers['Content-Type'] = req.contentType;
  const method = req.method ?? (body === undefined ? 'GET' : 'POST');
  const res = await fetch(buildUrl(target.base, req), {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  let json: unknown = null;
  let jsonOk = false;
  try {
    json = JSON.parse(text);
    jsonOk = true;
  } catch {
    // not JSON: only the text checks apply
  }
  return { status: res.status, headers: res.headers, text, json, jsonOk };
}

async function call(target: Target, action: string, params: Json): Promise<JsonObject> {
  const answer = await send(target, { action, json: params, auth: 'sysadmin' });
  const body = answer.json as { success?: boolean; result?: JsonObject } | null;
  if (answer.status !== 200 || !body?.success) throw new Error(`setup: ${action} → ${answer.status} ${answer.text.slice(0, 400)}`);
  return body.result ?? {};
}

/** Creates the case's organizations, groups, datasets, resources and tables, as a client would. */
async function setUp(target: Target, given: CompatCase['given'], names: Names): Promise<void> {
  for (const org of given?.organizations ?? []) await call(target, 'organization_create', names.fill(org));
  for (const group of given?.groups ?? []) await call(target, 'group_create', names.fill(group));
  for (const raw of given?.datasets ?? []) {
    const { resources = [], ...dataset } = names.fill(raw);
    const created = await call(target, 'package_create', dataset as Json);
    for (const resource of resources) {
      const { datastore, upload, ...meta } = resource;
      const fields: JsonObject = { package_id: created.id as string, url: '', url_type: 'datastore', ...(meta as JsonObject) };
      if (upload) {
        const answer = await send(target, {
          action: 'resource_create',
          auth: 'sysadmin',
          multipart: {
            fields: Object.fromEntries(
              Object.entries({ ...fields, url_type: null, url: upload.name })
                .filter(([, v]) => v !== null)
                .map(([k, v]) => [k, String(v)]),
            ),
            file: upload,
          },
        });
        if (answer.status !== 200) throw new Error(`setup: resource_create (upload) → ${answer.status} ${answer.text.slice(0, 400)}`);
      } else {
        await call(target, 'resource_create', fields);
      }
      if (datastore) await call(target, 'datastore_create', { resource_id: resource.id, force: true, ...(datastore as JsonObject) });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Checks

/** `result.records[0]["the year"]` → ['result', 'records', 0, 'the year']. */
export function parsePath(path: string): (string | number)[] {
  const parts: (string | number)[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  for (const m of path.matchAll(re)) {
    if (m[1] !== undefined) parts.push(m[1]);
    else if (m[2] !== undefined) parts.push(Number(m[2]));
    else parts.push(JSON.parse(`"${m[3]!}"`) as string);
  }
  return parts;
}

const MISSING = Symbol('missing');

function at(value: unknown, path: string): unknown {
  let v: unknown = value;
  for (const part of parsePath(path)) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, part)) return MISSING;
    v = (v as Record<string | number, unknown>)[part];
  }
  return v;
}

const show = (v: unknown): string => (v === MISSING ? '<missing>' : (JSON.stringify(v)?.slice(0, 600) ?? String(v)));

/** The first difference between an expected and an actual JSON value, or null. */
export function difference(expected: unknown, actual: unknown, subset: boolean, where = ''): string | null {
  if (expected === null || typeof expected !== 'object') {
    return Object.is(expected, actual) ? null : `${where || '.'}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${where || '.'}: expected a list, got ${show(actual)}`;
    if (actual.length !== expected.length)
      return `${where || '.'}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(expected[i], actual[i], subset, `${where}[${i}]`);
      if (d) return d;
    }
    return null;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
    return `${where || '.'}: expected an object, got ${show(actual)}`;
  }
  const act = actual as Record<string, unknown>;
  for (const [k, v] of Object.entries(expected)) {
    if (!Object.prototype.hasOwnProperty.call(act, k)) return `${where}.${k}: missing (expected ${show(v)})`;
    const d = difference(v, act[k], subset, `${where}.${k}`);
    if (d) return d;
  }
  if (!subset) {
    const extra = Object.keys(act).find((k) => !Object.prototype.hasOwnProperty.call(expected, k));
    if (extra !== undefined) return `${where}.${extra}: not expected, got ${show(act[extra])}`;
  }
  return null;
}

/** Every problem with an answer, empty when it meets the expectation. */
export function check(expect: CompatExpect, answer: Answer): string[] {
  const problems: string[] = [];
  const body = answer.jsonOk ? answer.json : MISSING;
  if (expect.status !== undefined && answer.status !== expect.status) {
    problems.push(`status: expected ${expect.status}, got ${answer.status}: ${answer.text.slice(0, 400)}`);
  }
  if (expect.contentType !== undefined) {
    const type = answer.headers.get('content-type') ?? '';
    if (!type.toLowerCase().startsWith(expect.contentType.toLowerCase()))
      problems.push(`content-type: expected ${expect.contentType}…, got ${type}`);
  }
  for (const [name, value] of Object.entries(expect.headers ?? {})) {
    const actual = answer.headers.get(name);
    if (actual !== value) problems.push(`header ${name}: expected ${show(value)}, got ${show(actual)}`);
  }
  if (expect.text !== undefined && answer.text !== expect.text) {
    problems.push(`text: expected ${JSON.stringify(expect.text)}, got ${JSON.stringify(answer.text.slice(0, 2000))}`);
  }
  if (expect.textStartsWith !== undefined && !answer.text.startsWith(expect.textStartsWith)) {
    problems.push(
      `text: expected to start with ${JSON.stringify(expect.textStartsWith)}, got ${JSON.stringify(answer.text.slice(0, 400))}`,
    );
  }
  for (const part of expect.textContains ?? []) {
    if (!answer.text.includes(part))
      problems.push(`text: expected to contain ${JSON.stringify(part)}, got ${JSON.stringify(answer.text.slice(0, 400))}`);
  }
  const needJson =
    expect.json !== undefined || expect.subset !== undefined || expect.paths || expect.absent || expect.lengths || expect.keys;
  if (needJson && body === MISSING) {
    problems.push(`body is not JSON: ${answer.text.slice(0, 400)}`);
    return problems;
  }
  if (expect.json !== undefined) {
    const d = difference(expect.json, body, false);
    if (d) problems.push(`json ${d}`);
  }
  if (expect.subset !== undefined) {
    const d = difference(expect.subset, body, true);
    if (d) problems.push(`subset ${d}`);
  }
  for (const [path, value] of Object.entries(expect.paths ?? {})) {
    const d = difference(value, at(body, path), false, path);
    if (d) problems.push(`path ${d}`);
  }
  for (const path of expect.absent ?? []) {
    if (at(body, path) !== MISSING) problems.push(`${path}: expected absent, got ${show(at(body, path))}`);
  }
  for (const [path, n] of Object.entries(expect.lengths ?? {})) {
    const v = at(body, path);
    const length = Array.isArray(v) || typeof v === 'string' ? v.length : MISSING;
    if (length !== n) problems.push(`${path}: expected length ${n}, got ${show(v)}`);
  }
  for (const [path, keys] of Object.entries(expect.keys ?? {})) {
    const v = at(body, path);
    const actual = v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : MISSING;
    const d = difference(keys, actual, false, path);
    if (d) problems.push(`keys ${d}`);
  }
  return problems;
}

/** Runs one case; resolves with its problems (empty = pass). */
export async function runCase(c: CompatCase, target: Target): Promise<string[]> {
  const names = new Names(target.base);
  try {
    await setUp(target, c.given, names);
  } catch (err) {
    return [(err as Error).message];
  }
  const overrides = target.kind === 'ckan-2.10' ? (c.ckan_2_10?.steps ?? []) : [];
  for (const [i, step] of c.steps.entries()) {
    const expect = overridden(names.fill(step.expect), overrides[i] ? names.fill(overrides[i]) : null);
    let answer: Answer;
    try {
      answer = await send(target, names.fill(step.request));
    } catch (err) {
      return [`step ${i}: ${(err as Error).message}`];
    }
    const problems = check(expect, answer);
    if (problems.length) return problems.map((p) => `step ${i}${step.note ? ` (${step.note})` : ''}: ${p}`);
    for (const [name, path] of Object.entries(step.capture ?? {})) {
      const value = at(answer.json, path);
      if (value === MISSING) return [`step ${i}: cannot capture ${name} from ${path}`];
      names.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
  }
  return [];
}
