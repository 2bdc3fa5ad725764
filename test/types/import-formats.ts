/**
 * Compile-time proof that every import format has its reader: the importer's table of readers
 * (src/main/importer/formats.ts, `READERS`) has this type, so `npm run typecheck` fails if the
 * line marked `@ts-expect-error` compiles, i.e. if a table without one format's reader were
 * accepted. Nothing here runs.
 */
import type { FormatReader } from '../../src/main/importer/formats';
import type { ImportFormat } from '../../src/shared/import-formats';

declare const reader: FormatReader;

// @ts-expect-error: geojson, a format of src/shared/import-formats.ts, has no reader
export const withoutGeojson: { readonly [F in ImportFormat]: FormatReader } = {
  csv: reader,
  xlsx: reader,
  ods: reader,
  json: reader,
  zip: reader,
};
