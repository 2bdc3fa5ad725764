import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Spool, SpoolReader } from '../engine/importer-api';

/**
 * The rows an import has read but not yet typed, on disk instead of in memory: the readers'
 * RowCollector writes them a chunk of rows at a time, and the import reads them back in the
 * same chunks once every column's type is known (import-file.ts). Per chunk: the row count,
 * each column's code per row (raw-columns.ts), and the values that columns of mostly unique
 * values met in that chunk (they are not kept in memory), as UTF-8 with where each ends. A
 * value UTF-8 cannot carry (a lone surrogate, only possible in JSON input) is stored as its
 * JSON text and listed.
 *
 *   u32 rows | u32 columns | columns × rows × u32 codes |
 *   per column: u32 values [| u32 bytes | values × u32 ends | bytes | u32 escaped | escaped × u32 index]
 */

/** What a chunk's columns were like when it was written (for indexing their texts early). */
export interface ChunkColumns {
  /** The header as read. */
  readonly header: readonly string[];
  readonly columns: readonly {
    /** The column's new values go out with the chunks (codes from `spillStart` on). */
    readonly spilling: boolean;
    readonly spillStart: number;
    /** Some value made the column text whatever follows. */
    readonly settledText: boolean;
  }[];
}

/** Where an import spills (its resource folder) and the spools it made, removed together. */
export class SpillTarget {
  private readonly spools: Spool[] = [];

  constructor(
    readonly dir: string,
    readonly label: string,
    /** Told of every chunk as it is written (import-file.ts hands texts to the second core). */
    readonly onChunk?: (place: ChunkPlace, firstRow: number, rows: number, columns: ChunkColumns) => void,
  ) {}

  create(name: string): Spool {
    const spool = Spool.create(this.dir, `${this.label}.${name}`);
    this.spools.push(spool);
    return spool;
  }

  /** Removes every spool of this import, the second worker's included (they share the label). */
  removeAll(): void {
    for (const s of this.spools.splice(0)) s.remove();
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    const prefix = `.${this.label}.`;
    for (const name of names) if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(this.dir, name), { force: true });
  }
}

export interface SpilledChunk {
  readonly rows: number;
  /** A code per row, per column; a column that started after this chunk has none (all NULL). */
  readonly codes: readonly Uint32Array[];
  /** Per column, the values its codes past its in-memory dictionary stand for, in order. */
  readonly values: readonly (readonly string[])[];
}

/** Where a chunk lies in its spill file, for a reader in another thread. */
export interface ChunkPlace {
  readonly path: string;
  readonly position: number;
  readonly length: number;
}

export class RowSpillWriter {
  private chunks = 0;

  constructor(private readonly spool: Spool) {}

  get chunkCount(): number {
    return this.chunks;
  }

  get path(): string {
    return this.spool.path;
  }

  /** Bytes written (every chunk flushed to the file). */
  get length(): number {
    return this.spool.length;
  }

  /** Writes one chunk and flushes it, so that another thread can read it at once. */
  write(rows: number, codes: readonly Uint32Array[], values: readonly (readonly string[])[]): ChunkPlace {
    const s = this.spool;
    const position = s.length;
    s.appendUint32(rows);
    s.appendUint32(codes.length);
    for (const c of codes) s.append(new Uint8Array(c.buffer, c.byteOffset, rows * 4));
    for (const list of values) {
      s.appendUint32(list.length);
      if (list.length === 0) continue;
      const ends = new Uint32Array(list.length);
      const escaped: number[] = [];
      let bytes = Buffer.allocUnsafe(list.reduce((n, v) => n + v.length * 3, 16));
      let used = 0;
      for (let i = 0; i < list.length; i++) {
        let text = list[i]!;
        if (!isWellFormed(text)) {
          escaped.push(i);
          text = JSON.stringify(text);
          if (used + text.length * 3 > bytes.length) {
            const grown = Buffer.allocUnsafe(used + text.length * 3 + bytes.length);
            bytes.copy(grown, 0, 0, used);
            bytes = grown;
          }
        }
        used += bytes.write(text, used, 'utf8');
        ends[i] = used;
      }
      s.appendUint32(used);
      s.append(new Uint8Array(ends.buffer));
      s.append(bytes.subarray(0, used));
      s.appendUint32(escaped.length);
      if (escaped.length) s.append(new Uint8Array(Uint32Array.from(escaped).buffer));
    }
    this.chunks++;
    s.flush();
    return { path: s.path, position, length: s.length - position };
  }

  reader(): RowSpillReader {
    this.spool.seal();
    return new RowSpillReader(new SpoolReader(this.spool), this.chunks);
  }
}

export class RowSpillReader {
  private left: number;

  constructor(
    private readonly from: SpoolReader,
    chunks: number,
  ) {
    this.left = chunks;
  }

  next(): SpilledChunk | null {
    if (this.left === 0) return null;
    this.left--;
    return readChunk(this.from);
  }
}

/** The chunk at `place` of a spill another thread writes (import-helper.ts). */
export function readChunkAt(place: ChunkPlace, spool: Spool): SpilledChunk {
  return readChunk(new SpoolReader(spool, place.position));
}

function readChunk(r: SpoolReader): SpilledChunk {
  const rows = r.nextUint32();
  const width = r.nextUint32();
  const codes: Uint32Array[] = [];
  for (let c = 0; c < width; c++) codes.push(new Uint32Array(r.next(rows * 4).buffer));
  const values: string[][] = [];
  for (let c = 0; c < width; c++) {
    const n = r.nextUint32();
    if (n === 0) {
      values.push([]);
      continue;
    }
    const byteLength = r.nextUint32();
    const ends = new Uint32Array(r.next(n * 4).buffer);
    const b = r.next(byteLength);
    const bytes = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
    const list = new Array<string>(n);
    for (let i = 0, start = 0; i < n; i++) {
      list[i] = bytes.toString('utf8', start, ends[i]);
      start = ends[i]!;
    }
    const escaped = r.nextUint32();
    if (escaped) for (const i of new Uint32Array(r.next(escaped * 4).buffer)) list[i] = JSON.parse(list[i]!) as string;
    values.push(list);
  }
  return { rows, codes, values };
}

/** ES2024's String.prototype.isWellFormed (the project's lib setting is ES2023). */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}
