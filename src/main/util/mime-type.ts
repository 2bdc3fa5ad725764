import { IMPORT_MEDIA_TYPES } from '../../shared/import-formats';

/**
 * The media type of a file from its name, as Python's `mimetypes.guess_type` gives it for the
 * files open-data portals publish (what CKAN stores as a resource's `mimetype`): the formats
 * Deskstore imports from their table (src/shared/import-formats.ts), and other files portals
 * publish.
 */
const TYPES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(Object.entries(IMPORT_MEDIA_TYPES).map(([ending, type]) => [ending.slice(1), type])),
  xml: 'text/xml',
  html: 'text/html',
  htm: 'text/html',
  pdf: 'application/pdf',
  xls: 'application/vnd.ms-excel',
  odt: 'application/vnd.oasis.opendocument.text',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  rdf: 'application/rdf+xml',
  kml: 'application/vnd.google-earth.kml+xml',
  shp: 'application/octet-stream',
  parquet: 'application/octet-stream',
};

export function mimeTypeOf(fileName: string): string | null {
  const lower = fileName.toLowerCase();
  // `x.csv.gz` is a compressed CSV: Python says text/csv (with gzip encoding).
  const inner = /\.([a-z0-9]+)\.gz$/.exec(lower);
  if (inner && TYPES[inner[1]!] && inner[1] !== 'gz') return TYPES[inner[1]!]!;
  const ext = /\.([a-z0-9]+)$/.exec(lower)?.[1];
  return ext ? (TYPES[ext] ?? null) : null;
}
