/**
 * Small reads of one section of a columns file served from the 4 KB blocks around them. A page
 * of results reads each cell's code (4 bytes) and text value (a few dozen bytes) from the file
 * while the column is not read whole; a filter's matching rows lie close together in the file,
 * so one block holds the codes of many of them. Reading each cell with a system call of its
 * own was most of a fresh server's first filter for each value (the 20 regions of the 1M-row
 * benchmark: 12–54 ms each on a quiet machine, ~126 ms of reads in 40 such filters).
 *
 * Generation files never change once written (file-sections.ts), so a block read once stays
 * right. A few blocks are kept per section: a page touches a handful of places in each.
 */
export const BLOCK_BYTES = 4096;
const BLOCKS_KEPT = 8;
/** A read larger than this goes to the file as it is, not through a block. */
const DIRECT_READ_BYTES = 4 * BLOCK_BYTES;

interface Block {
  readonly start: number;
  readonly bytes: Buffer;
}

/**
 * `read(start, end)` of a section `length` bytes long, through blocks. A range outside the
 * section is passed to `read` unchanged, so that it fails there with the file's own error.
 */
export function blockReads(length: number, read: (start: number, end: number) => Buffer): (start: number, end: number) => Buffer {
  const blocks: Block[] = [];
  return (start, end) => {
    if (start < 0 || end > length || start > end || end - start > DIRECT_READ_BYTES) return read(start, end);
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]!;
      if (start >= block.start && end <= block.start + block.bytes.length) {
        if (i > 0) {
          blocks.splice(i, 1);
          blocks.unshift(block); // most recently used first
        }
        return block.bytes.subarray(start - block.start, end - block.start);
      }
    }
    const blockStart = start - (start % BLOCK_BYTES);
    const blockEnd = Math.min(length, Math.max(blockStart + BLOCK_BYTES, Math.ceil(end / BLOCK_BYTES) * BLOCK_BYTES));
    const block = { start: blockStart, bytes: read(blockStart, blockEnd) };
    blocks.unshift(block);
    if (blocks.length > BLOCKS_KEPT) blocks.pop();
    return block.bytes.subarray(start - blockStart, end - blockStart);
  };
}
