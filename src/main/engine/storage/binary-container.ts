/**
 * A small file format for the derived in-memory structures of a resource (column store and
 * full-text index): a magic line, a JSON header, then binary sections at 8-byte aligned
 * offsets, so that a section read into memory of its own can be viewed by typed arrays without
 * copying (file-sections.ts reads them).
 *
 *   "DESKSTORE-COLUMNS 1\n" | u32 LE header length | header JSON | padding | sections...
 */
const MAGIC = Buffer.from('DESKSTORE-COLUMNS 1\n', 'latin1');
const align8 = (n: number): number => (n + 7) & ~7;

export interface ContainerHeader {
  readonly [key: string]: unknown;
}

export function encodeContainer(header: ContainerHeader, sections: readonly Uint8Array[]): Buffer[] {
  const layout: SectionLayout[] = [];
  const reserved = headRoom(
    JSON.stringify({ ...header, sections: sections.map(() => ({ offset: 0, length: 0 })) }).length + 64 + sections.length * 24,
  );
  let offset = reserved;
  for (const s of sections) {
    layout.push({ offset, length: s.byteLength });
    offset = align8(offset + s.byteLength);
  }
  const parts: Buffer[] = [containerHead(header, layout, reserved)];
  let written = reserved;
  sections.forEach((s, i) => {
    const pad = layout[i]!.offset - written;
    if (pad > 0) parts.push(Buffer.alloc(pad));
    parts.push(Buffer.from(s.buffer, s.byteOffset, s.byteLength));
    written = layout[i]!.offset + s.byteLength;
  });
  return parts;
}

/** Bytes to keep at the start of a container for a header JSON of up to `headerBytes`. */
export function headRoom(headerBytes: number): number {
  return align8(MAGIC.length + 4 + headerBytes);
}

/**
 * The first `reserved` bytes of a container: magic, header length, header JSON with the
 * section layout (the header holds the sections' offsets, which depend on the header's length:
 * hence room reserved in advance). Sections may be written in any order and leave gaps.
 */
export function containerHead(header: ContainerHeader, layout: readonly SectionLayout[], reserved: number): Buffer {
  const headerBytes = Buffer.from(JSON.stringify({ ...header, sections: layout }));
  if (MAGIC.length + 4 + headerBytes.length > reserved) throw new Error('container header outgrew its reserved space');
  const head = Buffer.alloc(reserved);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(headerBytes.length, MAGIC.length);
  headerBytes.copy(head, MAGIC.length + 4);
  return head;
}

export const alignSection = align8;

export class CorruptContainerError extends Error {}

export interface SectionLayout {
  readonly offset: number;
  readonly length: number;
}

/**
 * The header and section layout of a container of `size` bytes, read through `read(length,
 * position)` (file-sections.ts reads from the file), each section checked to lie inside it.
 */
export function readContainerHead(
  read: (length: number, position: number) => Uint8Array,
  size: number,
): { header: ContainerHeader; sections: SectionLayout[] } {
  if (size < MAGIC.length + 4) throw new CorruptContainerError('not a Deskstore columns file');
  const head = Buffer.from(read(MAGIC.length + 4, 0));
  if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new CorruptContainerError('not a Deskstore columns file');
  const length = head.readUInt32LE(MAGIC.length);
  if (MAGIC.length + 4 + length > size) throw new CorruptContainerError('columns file header is damaged');
  let header: ContainerHeader & { sections?: SectionLayout[] };
  try {
    header = JSON.parse(Buffer.from(read(length, MAGIC.length + 4)).toString('utf8'));
  } catch {
    throw new CorruptContainerError('columns file header is damaged');
  }
  const sections = (header.sections ?? []).map(({ offset, length: n }) => {
    if (!Number.isInteger(offset) || !Number.isInteger(n) || offset < 0 || n < 0 || offset % 8 !== 0) {
      throw new CorruptContainerError('columns file header is damaged');
    }
    if (offset + n > size) throw new CorruptContainerError('columns file is truncated');
    return { offset, length: n };
  });
  return { header, sections };
}

/** A typed-array view of a section (aligned by construction). */
export function uint32View(section: Uint8Array): Uint32Array {
  return new Uint32Array(section.buffer, section.byteOffset, section.byteLength / 4);
}
