import { compareUtf8 } from '../fts/merge-indexes';
import { INDEX_FORMAT, INDEX_FORMAT_VERSION, type EncodedIndexMeta, type InvertedIndex } from '../fts';
import type { ContainerWriter } from '../storage/container-writer';
import { Spool } from '../storage/spool';

/**
 * The full-text index of an import too big to build in memory, built as an external sort
 * builds its output: the rows are indexed a run at a time (a few hundred thousand rows each),
 * each run's index is spilled to disk, and at the end the runs are merged term by term, in
 * lexeme order, straight into the columns file's five index sections (fts/index-codec.ts).
 * Memory holds each run's term table (not its postings) and a small buffer per run.
 *
 * Runs cover consecutive row ranges in the order they are added, so a term's postings are
 * its runs' postings one after the other; runs whose ranges overlap (indexes of different
 * columns over the same rows) are merged row by row, a row's frequencies added up.
 */

export interface RunLayout {
  readonly terms: number;
  readonly postings: number;
  /** The first and last row holding a posting. */
  readonly firstRow: number;
  readonly lastRow: number;
  /** Byte positions in the spool. */
  readonly termOffsetsAt: number;
  readonly termBytesAt: number;
  readonly termBytesLength: number;
  readonly offsetsAt: number;
  readonly rowIdsAt: number;
  readonly tfsAt: number;
}

const READ_BLOCK = 1 << 16;

/** Runs written by another thread (its spool's path and their layouts), to merge with these. */
export interface RunsDescription {
  readonly path: string;
  readonly length: number;
  readonly runs: readonly RunLayout[];
  readonly postings: number;
}

export class IndexRuns {
  private readonly spool: Spool;
  private readonly runs: RunLayout[] = [];
  private postings = 0;

  constructor(dir: string, label: string) {
    this.spool = Spool.create(dir, `${label}.index-runs`);
  }

  get runCount(): number {
    return this.runs.length;
  }

  /** What another thread needs to merge these runs (after `seal`). */
  describe(): RunsDescription {
    this.spool.seal();
    return { path: this.spool.path, length: this.spool.length, runs: [...this.runs], postings: this.postings };
  }

  /** Spills the index of a run whose postings lie in rows `firstRow..lastRow`; empty runs are skipped. */
  add(index: InvertedIndex, firstRow: number, lastRow: number): void {
    if (index.termCount === 0) return;
    const s = this.spool;
    const at = (bytes: Uint8Array): number => {
      const position = s.length;
      s.append(bytes);
      return position;
    };
    const bytes = (a: Uint32Array | Uint8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    this.runs.push({
      terms: index.termCount,
      postings: index.postingCount,
      firstRow,
      lastRow,
      termOffsetsAt: at(bytes(index.termOffsets)),
      termBytesAt: at(index.termBytes),
      termBytesLength: index.termBytes.length,
      offsetsAt: at(bytes(index.offsets)),
      rowIdsAt: at(bytes(index.rowIds)),
      tfsAt: at(index.tfs),
    });
    this.postings += index.postingCount;
  }

  /**
   * Merges every run into `out` as the index's five sections (termBytes, termOffsets,
   * offsets, rowIds, tfs) and returns the meta and section numbers the columns file's header
   * records (the same as encodeIndex's). The spool is removed afterwards.
   */
  mergeInto(
    out: ContainerWriter,
    dir: string,
    label: string,
    others: readonly RunsDescription[] = [],
  ): { meta: EncodedIndexMeta; sections: number[] } {
    this.spool.seal();
    const cursors = this.runs.map((run, i) => new RunCursor(this.spool, run, i));
    const opened = others.map((o) => Spool.open(o.path, o.length));
    others.forEach((o, k) => {
      for (const run of o.runs) cursors.push(new RunCursor(opened[k]!, run, cursors.length));
    });
    const totalPostings = this.postings + others.reduce((n, o) => n + o.postings, 0);
    const termBytes = Spool.create(dir, `${label}.terms`);
    const termOffsets = Spool.create(dir, `${label}.term-offsets`);
    const offsets = Spool.create(dir, `${label}.offsets`);
    try {
      // Postings: at most every run's, fewer where overlapping runs share a row.
      const rowIdsSection = out.reserve(totalPostings * 4);
      const tfsSection = out.reserve(totalPostings);
      const rows = new SectionWriter(out, rowIdsSection, 4);
      const tfs = new SectionWriter(out, tfsSection, 1);
      const u32 = new Uint32Array(1);
      const u32Bytes = new Uint8Array(u32.buffer);
      const pushU32 = (spool: Spool, v: number): void => {
        u32[0] = v;
        spool.append(u32Bytes);
      };
      pushU32(termOffsets, 0);
      pushU32(offsets, 0);
      let termCount = 0;
      let termBytesTotal = 0;
      let written = 0;
      const heap = new TermHeap(cursors.filter((c) => c.advance()));
      const same: RunCursor[] = [];
      while (heap.size > 0) {
        same.length = 0;
        const first = heap.pop();
        same.push(first);
        while (heap.size > 0 && heap.peek().compareTerm(first) === 0) same.push(heap.pop());
        same.sort((a, b) => a.firstRow - b.firstRow || a.run - b.run);
        const term = first.termBytes();
        termBytes.append(term);
        termBytesTotal += term.length;
        written += mergePostings(same, rows, tfs);
        termCount++;
        pushU32(termOffsets, termBytesTotal);
        pushU32(offsets, written);
        for (const c of same) if (c.advance()) heap.push(c);
      }
      rows.flush();
      tfs.flush();
      out.truncateSection(rowIdsSection, written * 4);
      out.truncateSection(tfsSection, written);
      const termBytesSection = out.appendSpool(termBytes);
      const termOffsetsSection = out.appendSpool(termOffsets);
      const offsetsSection = out.appendSpool(offsets);
      const meta: EncodedIndexMeta = {
        format: INDEX_FORMAT,
        version: INDEX_FORMAT_VERSION,
        endianness: 'le',
        termCount,
        postingCount: written,
        termBytesLength: termBytesTotal,
        buffers: ['termBytes', 'termOffsets', 'offsets', 'rowIds', 'tfs'],
      };
      return { meta, sections: [termBytesSection, termOffsetsSection, offsetsSection, rowIdsSection, tfsSection] };
    } finally {
      termBytes.remove();
      termOffsets.remove();
      offsets.remove();
      for (const spool of opened) spool.close();
      this.remove();
    }
  }

  remove(): void {
    this.spool.remove();
  }
}

/** One run's terms in order, and its postings read a block at a time. */
class RunCursor {
  private readonly termOffsets: Uint32Array;
  private readonly terms: Uint8Array;
  private readonly offsets: Uint32Array;
  private term = -1;
  private rowBlock: Uint32Array = new Uint32Array(0);
  private tfBlock: Uint8Array = new Uint8Array(0);
  /** The posting index the blocks start at. */
  private blockStart = 0;

  constructor(
    private readonly spool: Spool,
    private readonly layout: RunLayout,
    readonly run: number,
  ) {
    this.termOffsets = u32(spool.read(layout.termOffsetsAt, (layout.terms + 1) * 4));
    this.terms = spool.read(layout.termBytesAt, layout.termBytesLength);
    this.offsets = u32(spool.read(layout.offsetsAt, (layout.terms + 1) * 4));
  }

  get firstRow(): number {
    return this.layout.firstRow;
  }
  get lastRow(): number {
    return this.layout.lastRow;
  }

  /** Moves to the next term; false past the last. */
  advance(): boolean {
    this.term++;
    return this.term < this.layout.terms;
  }

  /** Order of the current terms (lexeme order). */
  compareTerm(other: RunCursor): number {
    return compareUtf8(
      this.terms,
      this.termOffsets[this.term]!,
      this.termOffsets[this.term + 1]!,
      other.terms,
      other.termOffsets[other.term]!,
      other.termOffsets[other.term + 1]!,
    );
  }

  /** Heap order: by term, then by run. */
  before(other: RunCursor): boolean {
    const c = this.compareTerm(other);
    return c < 0 || (c === 0 && this.run < other.run);
  }

  termBytes(): Uint8Array {
    return this.terms.subarray(this.termOffsets[this.term], this.termOffsets[this.term + 1]);
  }

  /** The current term's postings, in pieces: `visit(rowIds, tfs)` per piece. */
  postings(visit: (rowIds: Uint32Array, tfs: Uint8Array) => void): void {
    let at = this.offsets[this.term]!;
    const end = this.offsets[this.term + 1]!;
    while (at < end) {
      if (at < this.blockStart || at >= this.blockStart + this.rowBlock.length) this.load(at);
      const from = at - this.blockStart;
      const to = Math.min(end - this.blockStart, this.rowBlock.length);
      visit(this.rowBlock.subarray(from, to), this.tfBlock.subarray(from, to));
      at = this.blockStart + to;
    }
  }

  private load(at: number): void {
    const count = Math.min(READ_BLOCK, this.layout.postings - at);
    this.rowBlock = u32(this.spool.read(this.layout.rowIdsAt + at * 4, count * 4));
    this.tfBlock = this.spool.read(this.layout.tfsAt + at, count);
    this.blockStart = at;
  }
}

function u32(bytes: Uint8Array): Uint32Array {
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/**
 * Writes one term's postings from the runs that hold it (by first row): one after the other
 * when their row ranges follow each other, else merged by row. Returns how many were written.
 */
function mergePostings(runs: readonly RunCursor[], rows: SectionWriter, tfs: SectionWriter): number {
  let ordered = true;
  for (let i = 1; i < runs.length && ordered; i++) if (runs[i]!.firstRow <= runs[i - 1]!.lastRow) ordered = false;
  let written = 0;
  if (ordered) {
    for (const run of runs)
      run.postings((r, t) => {
        rows.write(r);
        tfs.write(t);
        written += r.length;
      });
    return written;
  }
  // Overlapping runs: gather this term's postings (one term's, not the index's) and merge.
  const lists = runs.map((run) => {
    const parts: { r: Uint32Array; t: Uint8Array }[] = [];
    run.postings((r, t) => parts.push({ r: r.slice(), t: t.slice() }));
    return concat(parts);
  });
  let merged = lists[0]!;
  for (let i = 1; i < lists.length; i++) merged = unite(merged, lists[i]!);
  rows.write(merged.r);
  tfs.write(merged.t);
  return merged.r.length;
}

function concat(parts: readonly { r: Uint32Array; t: Uint8Array }[]): { r: Uint32Array; t: Uint8Array } {
  const n = parts.reduce((k, p) => k + p.r.length, 0);
  const r = new Uint32Array(n);
  const t = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    r.set(p.r, at);
    t.set(p.t, at);
    at += p.r.length;
  }
  return { r, t };
}

/** Union by row of two ascending lists; a row in both gets the sum of its frequencies (≤ 255). */
function unite(a: { r: Uint32Array; t: Uint8Array }, b: { r: Uint32Array; t: Uint8Array }): { r: Uint32Array; t: Uint8Array } {
  const r = new Uint32Array(a.r.length + b.r.length);
  const t = new Uint8Array(r.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.r.length || j < b.r.length) {
    if (j >= b.r.length || (i < a.r.length && a.r[i]! < b.r[j]!)) {
      r[k] = a.r[i]!;
      t[k++] = a.t[i++]!;
    } else if (i >= a.r.length || b.r[j]! < a.r[i]!) {
      r[k] = b.r[j]!;
      t[k++] = b.t[j++]!;
    } else {
      r[k] = a.r[i]!;
      t[k++] = Math.min(255, a.t[i++]! + b.t[j++]!);
    }
  }
  return { r: r.subarray(0, k), t: t.subarray(0, k) };
}

/** Buffered sequential writes into a reserved container section. */
class SectionWriter {
  private readonly buffer: Uint8Array;
  private used = 0;
  private position = 0;

  constructor(
    private readonly out: ContainerWriter,
    private readonly section: number,
    private readonly width: number,
  ) {
    this.buffer = new Uint8Array(1 << 20);
  }

  write(values: Uint32Array | Uint8Array): void {
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.length * this.width);
    if (this.used + bytes.length > this.buffer.length) this.flush();
    if (bytes.length >= this.buffer.length) {
      this.out.writeInto(this.section, this.position, bytes);
      this.position += bytes.length;
      return;
    }
    this.buffer.set(bytes, this.used);
    this.used += bytes.length;
  }

  flush(): void {
    if (this.used === 0) return;
    this.out.writeInto(this.section, this.position, this.buffer.subarray(0, this.used));
    this.position += this.used;
    this.used = 0;
  }
}

/** A binary min-heap of run cursors by current term (then run order). */
class TermHeap {
  private readonly items: RunCursor[];

  constructor(items: RunCursor[]) {
    this.items = [];
    for (const item of items) this.push(item);
  }

  get size(): number {
    return this.items.length;
  }

  peek(): RunCursor {
    return this.items[0]!;
  }

  push(item: RunCursor): void {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!a[i]!.before(a[parent]!)) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }

  pop(): RunCursor {
    const a = this.items;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.before(a[m]!)) m = l;
        if (r < a.length && a[r]!.before(a[m]!)) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}
