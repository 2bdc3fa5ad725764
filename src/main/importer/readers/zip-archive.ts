import { Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import { message } from '../../../shared/messages';
import { ImportInputError } from '../import-errors';
import { checkExpansion } from '../limits';

/**
 * A zip container (a `.zip` of data files, and the XLSX and ODS formats, which are zips of XML)
 * read through yauzl: the central directory lists the entries, each is inflated as a stream,
 * and nothing is expanded beyond the limits (limits.ts) — the declared sizes are checked
 * before an entry is opened, and yauzl checks that the bytes really match them.
 */
const MAX_ENTRIES = 10_000;

export interface ZipEntry {
  readonly name: string;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly entry: yauzl.Entry;
}

export interface ZipArchive {
  readonly entries: readonly ZipEntry[];
  find(name: string): ZipEntry | undefined;
  /** The entry's bytes, inflated as they are read, refused past the limits. */
  open(entry: ZipEntry): Promise<Readable>;
  /** The whole entry as text (small XML parts). */
  text(entry: ZipEntry): Promise<string>;
  close(): void;
}

function damaged(reason: string): ImportInputError {
  return new ImportInputError(message('import.refused.bad_zip', `This archive is damaged or not a zip file: ${reason}`, { reason }));
}

export async function openZip(path: string): Promise<ZipArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true, validateEntrySizes: true }, (err, file) => {
      if (err) reject(damaged(err.message));
      else resolve(file);
    });
  });
  const entries: ZipEntry[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entries.length >= MAX_ENTRIES) {
          reject(
            new ImportInputError(message('limits.zip_entries', `The archive holds more than ${MAX_ENTRIES} files.`, { max: MAX_ENTRIES })),
          );
          return;
        }
        if (!entry.fileName.endsWith('/')) {
          entries.push({ name: entry.fileName, compressedSize: entry.compressedSize, uncompressedSize: entry.uncompressedSize, entry });
        }
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', (err: Error) => reject(damaged(err.message)));
      zip.readEntry();
    });
  } catch (err) {
    zip.close();
    throw err;
  }
  const byName = new Map(entries.map((e) => [e.name, e]));
  const open = (e: ZipEntry): Promise<Readable> => {
    if (e.entry.isEncrypted()) {
      return Promise.reject(new ImportInputError(message('import.refused.encrypted_zip', `${e.name} is encrypted.`, { name: e.name })));
    }
    try {
      checkExpansion(e.uncompressedSize, e.compressedSize, e.name);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      zip.openReadStream(e.entry, (err, stream) => {
        if (err) return reject(damaged(err.message));
        let expanded = 0;
        const bounded = new Transform({
          transform(chunk: Buffer, _enc, callback) {
            expanded += chunk.length;
            try {
              checkExpansion(expanded, e.compressedSize, e.name);
            } catch (limit) {
              return callback(limit as Error);
            }
            callback(null, chunk);
          },
        });
        stream.on('error', (streamErr: Error) =>
          bounded.destroy(streamErr.message.includes('too many bytes') ? damaged(streamErr.message) : streamErr),
        );
        bounded.on('close', () => stream.destroy());
        resolve(stream.pipe(bounded));
      });
    });
  };
  return {
    entries,
    find: (name) => byName.get(name),
    open,
    async text(e) {
      const chunks: Buffer[] = [];
      for await (const chunk of await open(e)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    close: () => zip.close(),
  };
}
