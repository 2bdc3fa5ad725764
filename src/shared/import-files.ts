/**
 * What the file chooser and drag-and-drop accept: every format the importer reads (its table
 * of formats, src/main/importer/formats.ts, checks this list in a test), and gzip of the text ones.
 */
export const IMPORT_EXTENSIONS = ['.csv', '.tsv', '.txt', '.gz', '.xlsx', '.ods', '.json', '.geojson', '.zip'] as const;

export const IMPORT_ACCEPT = [
  ...IMPORT_EXTENSIONS,
  'text/csv',
  'text/tab-separated-values',
  'text/plain',
  'application/gzip',
  'application/zip',
  'application/json',
  'application/geo+json',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
].join(',');
