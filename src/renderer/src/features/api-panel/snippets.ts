/**
 * Ready-to-copy code for one action call: the URL, curl, Python (requests and ckanapi) and
 * JavaScript (fetch). All are built from the same ordered parameter pairs the table sends.
 * Pure: no DOM.
 */
import { actionPath, type ParamPairs } from '../../api/urls';

export interface SnippetInput {
  /** Site root without a trailing slash: `http://127.0.0.1:8765` or a portal's root. */
  readonly baseUrl: string;
  readonly action: string;
  readonly pairs: ParamPairs;
  /** Sent as `Authorization`; null leaves the header out (reads are anonymous). */
  readonly token: string | null;
}

export type SnippetKind = 'curl' | 'python' | 'ckanapi' | 'javascript';
export const SNIPPET_KINDS: readonly SnippetKind[] = ['curl', 'python', 'ckanapi', 'javascript'];

export function actionUrl(input: Pick<SnippetInput, 'baseUrl' | 'action' | 'pairs'>): string {
  return `${input.baseUrl}${actionPath(input.action, input.pairs)}`;
}

/** POSIX shell single quoting. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A Python or JavaScript string literal. JSON's escapes are valid in both; text with double
 * quotes but no single quotes or backslashes reads better in single quotes.
 */
export function str(text: string): string {
  if (text.includes('"') && !/['\\\x00-\x1f\u2028\u2029]/.test(text)) return `'${text}'`;
  return JSON.stringify(text);
}

/** Pairs grouped by name, repeated names as lists, first-seen order. */
function grouped(pairs: ParamPairs): [string, string[]][] {
  const map = new Map<string, string[]>();
  for (const [name, value] of pairs) map.set(name, [...(map.get(name) ?? []), value]);
  return [...map];
}

export function curlSnippet(input: SnippetInput): string {
  const lines = ['curl'];
  if (input.token) lines.push(`-H ${shellQuote(`Authorization: ${input.token}`)}`);
  lines.push(shellQuote(actionUrl(input)));
  return lines.join(' \\\n  ');
}

/** A query value as Python for `requests`: JSON parameters through json.dumps, numbers as numbers. */
function requestsValue(name: string, value: string): { code: string; json: boolean } {
  if (name === 'filters') {
    try {
      return { code: `json.dumps(${pythonLiteral(JSON.parse(value))})`, json: true };
    } catch {
      return { code: str(value), json: false };
    }
  }
  if (['limit', 'offset', 'rows', 'start'].includes(name) && /^\d+$/.test(value)) return { code: value, json: false };
  return { code: str(value), json: false };
}

export function pythonRequestsSnippet(input: SnippetInput): string {
  let usesJson = false;
  const params = grouped(input.pairs).map(([name, values]) => {
    if (values.length > 1) return `    ${str(name)}: [${values.map(str).join(', ')}],`;
    const { code, json } = requestsValue(name, values[0]!);
    usesJson ||= json;
    return `    ${str(name)}: ${code},`;
  });
  return [
    ...(usesJson ? ['import json', ''] : []),
    'import requests',
    '',
    'params = {',
    ...params,
    '}',
    'response = requests.get(',
    `    ${str(`${input.baseUrl}/api/3/action/${input.action}`)},`,
    '    params=params,',
    ...(input.token ? [`    headers={"Authorization": ${str(input.token)}},`] : []),
    ')',
    'response.raise_for_status()',
    'result = response.json()["result"]',
    ...(input.action === 'datastore_search'
      ? ['print(result.get("total"), "rows")', 'for record in result["records"]:', '    print(record)']
      : ['print(result)']),
  ].join('\n');
}

/** JSON → Python literal (true/false/null become True/False/None). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'None';
  if (typeof value === 'string') return str(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${str(k)}: ${pythonLiteral(v)}`)
    .join(', ')}}`;
}

/** A query-string value as the typed keyword argument ckanapi sends as JSON. */
function ckanapiValue(name: string, values: string[]): string {
  if (values.length > 1) return pythonLiteral(values);
  const value = values[0]!;
  if (name === 'filters') {
    try {
      return pythonLiteral(JSON.parse(value));
    } catch {
      return str(value);
    }
  }
  if (['limit', 'offset', 'rows', 'start'].includes(name) && /^\d+$/.test(value)) return value;
  if (['plain', 'include_total', 'distinct'].includes(name) && /^(true|false)$/i.test(value))
    return value.toLowerCase() === 'true' ? 'True' : 'False';
  if (name === 'fields') return pythonLiteral(value.split(','));
  return str(value);
}

export function ckanapiSnippet(input: SnippetInput): string {
  const args = grouped(input.pairs).map(([name, values]) => `    ${name}=${ckanapiValue(name, values)},`);
  return [
    'from ckanapi import RemoteCKAN',
    '',
    `ckan = RemoteCKAN(${str(input.baseUrl)}${input.token ? `, apikey=${str(input.token)}` : ''})`,
    `result = ckan.action.${input.action}(`,
    ...args,
    ')',
    ...(input.action === 'datastore_search'
      ? ['print(result.get("total"), "rows")', 'for record in result["records"]:', '    print(record)']
      : ['print(result)']),
  ].join('\n');
}

const identifier = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : str(name));

export function javascriptSnippet(input: SnippetInput): string {
  const repeated = grouped(input.pairs).some(([, values]) => values.length > 1);
  const params = repeated
    ? ['const params = new URLSearchParams([', ...input.pairs.map(([n, v]) => `  [${str(n)}, ${str(v)}],`), ']);']
    : ['const params = new URLSearchParams({', ...input.pairs.map(([n, v]) => `  ${identifier(n)}: ${str(v)},`), '});'];
  return [
    ...params,
    'const response = await fetch(',
    `  \`${input.baseUrl}/api/3/action/${input.action}?\${params}\`,`,
    ...(input.token ? [`  { headers: { Authorization: ${str(input.token)} } },`] : []),
    ');',
    'const { success, result, error } = await response.json();',
    'if (!success) throw new Error(JSON.stringify(error));',
    ...(input.action === 'datastore_search' ? ['console.log(result.total, "rows", result.records);'] : ['console.log(result);']),
  ].join('\n');
}

export function buildSnippet(kind: SnippetKind, input: SnippetInput): string {
  switch (kind) {
    case 'curl':
      return curlSnippet(input);
    case 'python':
      return pythonRequestsSnippet(input);
    case 'ckanapi':
      return ckanapiSnippet(input);
    case 'javascript':
      return javascriptSnippet(input);
  }
}
