import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { message } from '../../../shared/messages';
import type { EntryChoice, ImportFormat } from '../../../shared/wire/import';
import { ImportInputError } from '../import-errors';
import type { RawTable } from '../raw-table';
import type { ReadRequest, TableReader } from './reader';
import { openZip } from './zip-archive';

/**
 * A zip archive of data files, as portals often publish them: its files are listed (for the
 * entry picker), the chosen one (by default the first Deskstore can read) is extracted to a
 * temporary file within the limits, and read by its own format's reader.
 */
export interface ZipFormats {
  /** The format a file inside the archive has, from its name; null when it cannot be imported. */
  readonly formatByName: (name: string) => ImportFormat | null;
  /** The reader for an extracted file, from its content and name. */
  readonly readerFor: (path: string, name: string) => Promise<TableReader>;
}

const hidden = (name: string): boolean => name.startsWith('__MACOSX/') || basename(name).startsWith('.');

export function zipReader(formats: ZipFormats): TableReader {
  return async (req: ReadRequest): Promise<RawTable> => {
    const zip = await openZip(req.path);
    const work = await mkdtemp(join(tmpdir(), 'deskstore-zip-'));
    try {
      const entries: EntryChoice[] = zip.entries
        .filter((e) => !hidden(e.name))
        .map((e) => ({
          name: e.name,
          bytes: e.uncompressedSize,
          format: formats.formatByName(e.name) === 'zip' ? null : formats.formatByName(e.name),
        }));
      const wanted = req.choices.entry;
      const chosen = wanted === undefined ? entries.find((e) => e.format !== null) : entries.find((e) => e.name === wanted);
      if (!chosen || chosen.format === null) {
        throw new ImportInputError(
          wanted === undefined
            ? message('import.refused.zip_nothing', 'The archive holds no file Deskstore can import (CSV, TSV, XLSX, ODS, JSON, GeoJSON).')
            : message('import.refused.zip_entry', `The archive has no importable file ${JSON.stringify(wanted)}.`, { name: wanted }),
        );
      }
      const extracted = join(work, basename(chosen.name).replace(/[^\w.-]+/g, '_') || 'entry');
      await pipeline(await zip.open(zip.find(chosen.name)!), createWriteStream(extracted));
      const read = await formats.readerFor(extracted, chosen.name);
      const { entry: _entry, ...choices } = req.choices;
      const table = await read({ ...req, path: extracted, name: chosen.name, choices });
      return { ...table, layout: { ...table.layout, entries, entry: chosen.name } };
    } finally {
      zip.close();
      await rm(work, { recursive: true, force: true });
    }
  };
}
