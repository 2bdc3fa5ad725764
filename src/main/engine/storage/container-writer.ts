import { storageFailure } from '../../storage/storage-failure';
import { alignSection, containerHead, type ContainerHeader, type SectionLayout } from './binary-container';
import { DurableFileWriter } from './durable-files';
import type { PieceSpool, Spool, SpoolPiece } from './spool';

/**
 * A container file (binary-container.ts) written section by section, for files too big to
 * hold whole: a section is either appended (from memory or from a spool) or reserved at its
 * final size and filled piece by piece as rows stream in (codes, a column at a time per chunk
 * of rows). The header, which lists every section, is written last into room kept at the
 * start; then the file is fsynced and renamed into place, so a crash leaves only a temporary
 * file (the same guarantee as durable-files.ts).
 */
export class ContainerWriter {
  private readonly file: DurableFileWriter;
  private readonly layout: SectionLayout[] = [];
  private end: number;

  private constructor(
    readonly path: string,
    private readonly headRoom: number,
  ) {
    this.file = new DurableFileWriter(path);
    this.end = headRoom;
  }

  /** `headRoom`: bytes kept for the header (binary-container.ts `headRoom`). */
  static create(path: string, headRoom: number): ContainerWriter {
    return new ContainerWriter(path, headRoom);
  }

  get sectionCount(): number {
    return this.layout.length;
  }

  /** A section of `length` bytes to be filled with `writeInto`; returns its index. */
  reserve(length: number): number {
    this.layout.push({ offset: this.end, length });
    this.end = alignSection(this.end + length);
    return this.layout.length - 1;
  }

  /** Writes `bytes` at `offset` inside a reserved section. */
  writeInto(section: number, offset: number, bytes: Uint8Array): void {
    const at = this.layout[section];
    if (!at || offset < 0 || offset + bytes.byteLength > at.length) throw new RangeError(`write outside section ${section}`);
    this.write(bytes, at.offset + offset);
  }

  /** Appends one section made of `parts`, in order; returns its index. */
  append(...parts: Uint8Array[]): number {
    const length = parts.reduce((n, p) => n + p.byteLength, 0);
    const section = this.reserve(length);
    let at = this.layout[section]!.offset;
    for (const p of parts) {
      this.write(p, at);
      at += p.byteLength;
    }
    return section;
  }

  /** Appends a spool's bytes as one section; returns its index. */
  appendSpool(spool: Spool): number {
    spool.seal();
    const section = this.reserve(spool.length);
    try {
      spool.copyTo(this.file.descriptor, this.layout[section]!.offset);
    } catch (err) {
      throw storageFailure(`Could not write ${this.path}`, err);
    }
    return section;
  }

  /** Appends one section made of a shared spool's pieces, in order; returns its index. */
  appendPieces(spool: PieceSpool, pieces: readonly SpoolPiece[]): number {
    const section = this.reserve(pieces.reduce((n, p) => n + p.length, 0));
    let at = this.layout[section]!.offset;
    try {
      for (const p of pieces) {
        spool.underlying.copyRangeTo(p.position, p.length, this.file.descriptor, at);
        at += p.length;
      }
    } catch (err) {
      throw storageFailure(`Could not write ${this.path}`, err);
    }
    return section;
  }

  /** A reserved section's bytes as written so far (a rare path: a dictionary rebuilt as JSON). */
  readBack(section: number): Uint8Array {
    const { offset, length } = this.layout[section]!;
    return this.file.readAt(offset, length);
  }

  /** Shrinks a reserved section to what was really written into it (the rest stays unused). */
  truncateSection(section: number, length: number): void {
    const at = this.layout[section]!;
    if (length > at.length) throw new RangeError('a section cannot grow');
    this.layout[section] = { offset: at.offset, length };
  }

  /** Writes the header, makes the file durable and renames it into place; returns its size. */
  finish(header: ContainerHeader): number {
    try {
      this.file.writeAt(containerHead(header, this.layout, this.headRoom), 0);
    } catch (err) {
      this.abort();
      throw err;
    }
    this.file.commit(this.end);
    return this.end;
  }

  abort(): void {
    this.file.abort();
  }

  private write(bytes: Uint8Array, position: number): void {
    this.file.writeAt(bytes, position);
  }
}
