/**
 * The kinds of file Deskstore imports, each one's facts written once, as data
 * (docs/importing.md, "Formats"): the name endings that name it, with the media type each
 * stands for. Everything else is derived from this table: the file chooser's accept list and
 * the desktop dialog's filter, the media type stored with an upload (src/main/util/mime-type.ts),
 * which resource URLs and `format`s are loaded into the DataStore (looksTabular), the format of
 * a file inside a zip from its name. The importer supplies one reader per format
 * (`Record<ImportFormat, …>` in src/main/importer/formats.ts: a format without one does not
 * compile).
 */

/** The formats, in the order people know them. */
export const IMPORT_FORMATS = ['csv', 'xlsx', 'ods', 'json', 'geojson', 'zip'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportFormatFacts {
  /** Name ending (lowercase, with its dot) → the media type it stands for; the first names the format. */
  readonly extensions: Readonly<Record<string, string>>;
  /** Text: may also come gzip-compressed (`x.csv.gz`). */
  readonly text: boolean;
}

export const IMPORT_FORMAT_FACTS: { readonly [F in ImportFormat]: ImportFormatFacts } = {
  csv: { extensions: { '.csv': 'text/csv', '.tsv': 'text/tab-separated-values', '.txt': 'text/plain' }, text: true },
  xlsx: { extensions: { '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }, text: false },
  ods: { extensions: { '.ods': 'application/vnd.oasis.opendocument.spreadsheet' }, text: false },
  json: { extensions: { '.json': 'application/json' }, text: true },
  geojson: { extensions: { '.geojson': 'application/geo+json' }, text: true },
  zip: { extensions: { '.zip': 'application/zip' }, text: false },
};

/** gzip around a text format. */
export const GZIP = { extension: '.gz', mediaType: 'application/gzip' } as const;

const facts = IMPORT_FORMATS.map((id) => [id, IMPORT_FORMAT_FACTS[id]] as const);

export function extensionsOf(format: ImportFormat): string[] {
  return Object.keys(IMPORT_FORMAT_FACTS[format].extensions);
}

/** Name ending → media type, for every ending a format names (`.gz` included). */
export const IMPORT_MEDIA_TYPES: Readonly<Record<string, string>> = Object.fromEntries([
  ...facts.flatMap(([, f]) => Object.entries(f.extensions)),
  [GZIP.extension, GZIP.mediaType],
]);

/** What the file chooser and drag-and-drop accept: every format's endings, and gzip of the text ones. */
export const IMPORT_EXTENSIONS: readonly string[] = Object.keys(IMPORT_MEDIA_TYPES);

/** The file chooser's `accept`: the endings and their media types. */
export const IMPORT_ACCEPT = [...IMPORT_EXTENSIONS, ...new Set(Object.values(IMPORT_MEDIA_TYPES))].join(',');

/** A name's last ending, lowercase with its dot (`Dati.CSV` → `.csv`), or '' without one. */
function endingOf(name: string): string {
  const match = /(\.[^./\\]+)$/.exec(name);
  return match ? match[1]!.toLowerCase() : '';
}

/** Which format a name says (`x.csv`, `x.tsv.gz` → csv), or null. */
export function importFormatByName(name: string): ImportFormat | null {
  const ending = endingOf(name.replace(/\.gz$/i, ''));
  return facts.find(([, f]) => Object.hasOwn(f.extensions, ending))?.[0] ?? null;
}

/**
 * The `format` words that name a loadable table, as xloader's format list does: each format's
 * id, its endings without the dot and their media types (`csv`, `tsv`, `text/csv`, `xlsx`,
 * `application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, …).
 */
const TABULAR_FORMATS = new Set(
  facts.flatMap(([id, f]) => [id, ...Object.keys(f.extensions).map((e) => e.slice(1)), ...Object.values(f.extensions)]),
);

/** Only tabular files are loaded into the DataStore from a URL: by the resource's `format`, or the URL's name ending. */
export function looksTabular(url: string, format: unknown): boolean {
  if (TABULAR_FORMATS.has(String(format ?? '').toLowerCase())) return true;
  const path = url.replace(/[?#].*$/, '');
  return IMPORT_EXTENSIONS.includes(endingOf(path));
}
