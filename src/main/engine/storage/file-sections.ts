import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { CorruptContainerError, readContainerHead, type SectionLayout } from './binary-container';

/**
 * The sections of a container file, read when asked for rather than all at load. On these
 * machines filling fresh memory costs far more than reading the file (about 3 ms per MB of
 * page faults, against 0.5 ms per MB of reading): a restarted server that read a 1M-row
 * resource's 190 MB columns file whole spent most of its first answer there, while that
 * answer needs the codes and a few cells. Generation files never change once written, so a
 * section read later is the section that was there at load; an old generation is deleted
 * only after its resource was written out again (everything read) or unloaded.
 */
export class FileSections {
  /** The file kept open between reads that follow each other (withFile). */
  private fd: number | null = null;

  private constructor(
    readonly path: string,
    readonly header: Record<string, unknown>,
    private readonly layout: readonly SectionLayout[],
  ) {}

  /** Reads the header and checks that every section lies inside the file. */
  static open(path: string): FileSections {
    const fd = openSync(path, 'r');
    try {
      const size = fstatSync(fd).size;
      const { header, sections } = readContainerHead((length, position) => readExactly(fd, length, position), size);
      return new FileSections(path, header, sections);
    } finally {
      closeSync(fd);
    }
  }

  length(index: number): number {
    return this.at(index).length;
  }

  /** A whole section, in memory of its own (8-byte aligned, so typed arrays can view it). */
  read(index: number): Uint8Array {
    const { offset, length } = this.at(index);
    return this.withFile((fd) => readExactly(fd, length, offset));
  }

  /** Bytes `start` to `end` of a section, without reading the rest. */
  readRange(index: number, start: number, end: number): Buffer {
    const { offset, length } = this.at(index);
    if (start < 0 || end > length || start > end) throw new CorruptContainerError(`range ${start}-${end} outside section ${index}`);
    const bytes = this.withFile((fd) => readExactly(fd, end - start, offset + start));
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private at(index: number): SectionLayout {
    const section = this.layout[index];
    if (!section) throw new CorruptContainerError(`${this.path} lacks section ${index}`);
    return section;
  }

  /**
   * A page of results reads two small ranges per cell (its code, its value): a thousand cells
   * opened and closed the file two thousand times, a quarter of a restarted server's first `q`.
   * The file now stays open for KEEP_OPEN_MS after it was opened, and then until the work in
   * hand is done (a timer runs only between tasks): no descriptor outlives the work that used
   * it for long (Node opens files shareable for deletion on Windows too, so an old generation
   * can still be removed meanwhile).
   */
  private withFile<T>(use: (fd: number) => T): T {
    if (this.fd === null) {
      const fd = openSync(this.path, 'r');
      this.fd = fd;
      setTimeout(() => {
        this.fd = null;
        try {
          closeSync(fd);
        } catch {
          // already closed: nothing to release
        }
      }, KEEP_OPEN_MS).unref();
    }
    return use(this.fd);
  }
}

const KEEP_OPEN_MS = 200;

function readExactly(fd: number, length: number, position: number): Uint8Array {
  const bytes = new Uint8Array(new ArrayBuffer(length));
  let done = 0;
  while (done < length) {
    const n = readSync(fd, bytes, done, length - done, position + done);
    if (n === 0) throw new CorruptContainerError('columns file is truncated');
    done += n;
  }
  return bytes;
}
