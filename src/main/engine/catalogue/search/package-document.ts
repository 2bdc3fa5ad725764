import { indexTerms, type Term } from './solr-analysis';

/**
 * A dataset as CKAN indexes it in Solr (ckan/lib/search/index.py and schema.xml), built from
 * its package_show dict: which fields exist, of which type, and what the catch-all `text`
 * field holds. Searches and facets run over these documents.
 */
export type FieldKind = 'string' | 'text' | 'date' | 'number';

export interface PackageDocument {
  readonly dict: Record<string, unknown>;
  readonly strings: ReadonlyMap<string, readonly string[]>;
  readonly texts: ReadonlyMap<string, readonly Term[]>;
  readonly dates: ReadonlyMap<string, number>;
  readonly numbers: ReadonlyMap<string, number>;
}

/** Fields of schema.xml with an analysed type; every other named field is a `string`. */
const TEXT_FIELDS = new Set([
  'title',
  'notes',
  'text',
  'author',
  'author_email',
  'maintainer',
  'maintainer_email',
  'res_name',
  'res_description',
  'urls',
]);
const DATE_FIELDS = new Set(['metadata_created', 'metadata_modified']);
const NUMBER_FIELDS = new Set(['num_resources', 'num_tags', 'views_total', 'views_recent']);

export function fieldKind(field: string): FieldKind {
  if (TEXT_FIELDS.has(field) || field.startsWith('extras_') || field.startsWith('res_extras_')) return 'text';
  if (DATE_FIELDS.has(field) || field.endsWith('_date')) return 'date';
  if (NUMBER_FIELDS.has(field)) return 'number';
  return 'string';
}

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
const list = (values: unknown[]): string[] => values.map(str).filter((v): v is string => v !== null);

/** CKAN stores naive UTC timestamps (`2026-11-23T22:22:53.563523`); Solr reads them as UTC. */
export function timestampOf(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(t) ? null : t;
}

export function packageDocument(dict: Record<string, unknown>): PackageDocument {
  const resources = Array.isArray(dict.resources) ? (dict.resources as Record<string, unknown>[]) : [];
  const org = dict.organization as { name?: unknown } | null;
  const groups = Array.isArray(dict.groups) ? (dict.groups as { name?: unknown }[]) : [];
  const tags = Array.isArray(dict.tags) ? (dict.tags as { name?: unknown }[]) : [];
  const extras = Array.isArray(dict.extras) ? (dict.extras as { key?: unknown; value?: unknown }[]) : [];

  const strings = new Map<string, string[]>();
  // index.py indexes every scalar member of the dict under its own name (dynamic `*` string).
  for (const [key, value] of Object.entries(dict)) {
    if (value !== null && typeof value !== 'object' && fieldKind(key) === 'string') strings.set(key, list([value]));
  }
  strings.set('organization', list([org?.name]));
  strings.set('groups', list(groups.map((g) => g.name)));
  strings.set('tags', list(tags.map((t) => t.name)));
  strings.set('res_format', list(resources.map((r) => r.format)));
  strings.set('res_url', list(resources.map((r) => r.url)));
  strings.set('res_type', list(resources.map((r) => r.resource_type)));
  strings.set('license', list([dict.license_title]));
  strings.set('capacity', ['public']);
  strings.set('dataset_type', list([dict.type]));
  strings.set('entity_type', ['package']);
  strings.set('title_string', list([dict.title]));

  const textValues = new Map<string, string[]>([
    ['title', list([dict.title])],
    ['notes', list([dict.notes])],
    ['author', list([dict.author])],
    ['author_email', list([dict.author_email])],
    ['maintainer', list([dict.maintainer])],
    ['maintainer_email', list([dict.maintainer_email])],
    ['res_name', list(resources.map((r) => r.name))],
    ['res_description', list(resources.map((r) => r.description))],
    ['urls', list([dict.url, ...resources.map((r) => r.url)])],
  ]);
  for (const e of extras) if (typeof e.key === 'string') textValues.set(`extras_${e.key}`, list([e.value]));
  // schema.xml's copyFields into the catch-all `text`.
  textValues.set('text', [
    ...list([dict.name]),
    ...textValues.get('title')!,
    ...textValues.get('notes')!,
    ...strings.get('tags')!,
    ...strings.get('groups')!,
    ...strings.get('organization')!,
    ...textValues.get('res_name')!,
    ...textValues.get('res_description')!,
    ...textValues.get('maintainer')!,
    ...textValues.get('author')!,
    ...strings.get('license')!,
    ...textValues.get('urls')!,
    ...extras.map((e) => str(e.value)).filter((v): v is string => v !== null),
  ]);
  const texts = new Map<string, Term[]>();
  for (const [field, values] of textValues) {
    // Values of a multi-valued field are apart (positionIncrementGap="100"): no phrase spans two.
    let offset = 0;
    const terms: Term[] = [];
    for (const value of values) {
      const analysed = indexTerms(value);
      for (const t of analysed) terms.push({ term: t.term, position: t.position + offset });
      offset += (analysed.at(-1)?.position ?? 0) + 101;
    }
    texts.set(field, terms);
  }

  const dates = new Map<string, number>();
  for (const field of DATE_FIELDS) {
    const t = timestampOf(dict[field]);
    if (t !== null) dates.set(field, t);
  }
  const numbers = new Map<string, number>([
    ['num_resources', resources.length],
    ['num_tags', tags.length],
    ['views_total', 0],
    ['views_recent', 0],
  ]);
  return { dict, strings, texts, dates, numbers };
}
