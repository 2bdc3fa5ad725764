import { Utf8Dictionary } from '../column-store/utf8-dictionary';
import { isStoredAsNumber } from '../field-types';
import { documentTermIds, PostingsBuilder, TermInterner, type TextSearchLanguage } from '../fts';
import { headRoom } from '../storage/binary-container';
import type { ColumnsHeader } from '../storage/column-codec';
import { DICTIONARY_CHUNK } from '../storage/column-codec';
import { ContainerWriter } from '../storage/container-writer';
import { columnsPath, sqlitePath, type ColumnsFileHeader } from '../storage/resource-files';
import { PieceSpool, type SpoolPiece } from '../storage/spool';
import { ColumnTermsBuilder, hasDictionaryTerms, writeColumnTerms } from '../text-index/stored-column-terms';
import { isIndexedColumn } from '../text-index/text-layout';
import type { StoredValue } from '../values/coerce';
import { documentText } from '../values/document-text';
import { IndexRuns, type RunsDescription } from './index-runs';
import { TableChunks, type ColumnChunk, type TableColumn } from './table-chunks';

/**
 * A new generation of a resource's files written as its rows stream in, a chunk of rows at a
 * time, in bounded memory (docs/importing.md, "How an import runs"): each chunk's codes go to
 * their place in the columns file, the values it brings to the column dictionaries, its rows to
 * the SQLite table file (sqlite/table-file-writer.ts) and to a run of the full-text index
 * (index-runs.ts, merged at the end). What grows with the file is on disk; memory holds the
 * dictionaries known up front (the distinct values of repetitive columns), one chunk, and one
 * index run.
 *
 * The files are the same as buildResourceVersion writes from a whole column store: a reader
 * cannot tell how they were made.
 */

export type { ColumnChunk };

export interface StreamedColumn extends TableColumn {
  /** The dictionary may hold a value twice (column.ts). */
  readonly mayRepeat: boolean;
}

export interface StreamedVersionInput {
  readonly resourceId: string;
  readonly dir: string;
  readonly generation: number;
  readonly columns: readonly StreamedColumn[];
  /** Rows in all: `_id`s 1..rows, every one live. */
  readonly rows: number;
  readonly ftsLanguage: TextSearchLanguage;
  /** Rows per full-text index run (at most; a run also ends at MAX_RUN_POSTINGS). */
  readonly runRows?: number;
  /** The table file is written elsewhere (a second worker fed the same chunks): not here. */
  readonly tableElsewhere?: boolean;
  /**
   * Index runs built elsewhere, while the file was read (import/spilled-text-index.ts): per
   * column, from which row on the values arriving with the rows are already indexed there.
   */
  readonly indexedElsewhere?: ReadonlyMap<string, number>;
}

const RUN_ROWS = 1 << 20;
/**
 * A run ends once it holds this many postings: its builder's memory is about 25 bytes each at
 * its peak, ~50 MB. Both import threads hold one (the second worker's for the texts it indexes
 * early), and at 4M postings they were the largest part of the import's peak (issue 24: 588–594
 * MB against 545–562 MB for the 1M-row bench file); the merge reads a few more runs.
 */
export const MAX_RUN_POSTINGS = 1 << 21;

export class StreamedVersionWriter {
  private readonly columnsFile: ContainerWriter;
  private readonly table: TableChunks | null;
  private readonly dictionaries: DictionaryWriter[];
  private readonly codesSections: number[];
  private readonly liveSection: number;
  private readonly indexed: number[];
  /** Per column searched through its dictionary, its lexeme → codes table (stored-column-terms.ts). */
  private readonly columnTerms: (ColumnTermsBuilder | null)[];
  private readonly runs: IndexRuns;
  private readonly pieces: PieceSpool;
  private run: RunIndexer | null = null;
  private nextRow = 1;
  private readonly label: string;

  constructor(private readonly input: StreamedVersionInput) {
    const { columns, rows, dir, generation } = input;
    this.label = `import-${generation}`;
    this.columnsFile = ContainerWriter.create(columnsPath(dir, generation), headerRoom(columns));
    this.runs = new IndexRuns(dir, this.label);
    this.dictionaries = [];
    this.table = null;
    this.pieces = new PieceSpool(dir, `${this.label}.dictionaries`);
    try {
      this.codesSections = columns.map(() => this.columnsFile.reserve((rows + 1) * 4));
      this.liveSection = this.columnsFile.reserve(rows + 1);
      for (const c of columns) this.dictionaries.push(new DictionaryWriter(c, this.columnsFile, this.pieces));
      this.table = input.tableElsewhere ? null : new TableChunks(sqlitePath(dir, generation), input.resourceId, columns);
      this.indexed = columns.flatMap((c, i) => (isIndexedColumn(c.type, c.entries - 1, rows) ? [i] : []));
      const indexedIds = new Set(this.indexedColumns);
      this.columnTerms = columns.map((c) => {
        if (!hasDictionaryTerms(c.type, c.id, indexedIds)) return null;
        const builder = new ColumnTermsBuilder(c.id, c.type.storage, input.ftsLanguage, c.entries);
        builder.add(c.dictionary.slice(1));
        return builder;
      });
    } catch (err) {
      this.abort();
      throw err;
    }
  }

  /** Per column, from which row its arriving values are indexed by runs from elsewhere. */
  get indexedElsewhere(): ReadonlyMap<string, number> {
    return this.input.indexedElsewhere ?? new Map();
  }

  /** The columns the full-text index covers (stored in the columns file's header). */
  get indexedColumns(): string[] {
    return this.indexed.map((i) => this.input.columns[i]!.id);
  }

  /** The next `count` rows (`_id`s continue from the previous chunk), one ColumnChunk per column. */
  addRows(count: number, chunk: readonly ColumnChunk[]): void {
    const { columns } = this.input;
    const first = this.nextRow;
    if (first + count - 1 > this.input.rows) throw new RangeError('more rows than announced');
    const values: ChunkValues[] = [];
    for (let c = 0; c < columns.length; c++) {
      const part = chunk[c]!;
      if (part.codes.length !== count) throw new RangeError(`column ${columns[c]!.id}: ${part.codes.length} codes for ${count} rows`);
      const dictionary = this.dictionaries[c]!;
      const base = dictionary.arrived;
      if (part.values?.length) {
        dictionary.add(part.values);
        this.columnTerms[c]?.add(part.values);
      }
      values.push(new ChunkValues(columns[c]!.dictionary, base, part.values ?? []));
      this.columnsFile.writeInto(this.codesSections[c]!, first * 4, bytesOf(part.codes));
    }
    this.columnsFile.writeInto(this.liveSection, first, new Uint8Array(count).fill(1));
    this.table?.add(count, chunk);
    this.indexRows(first, count, chunk, values);
    this.nextRow += count;
  }

  private indexRows(first: number, count: number, chunk: readonly ColumnChunk[], values: readonly ChunkValues[]): void {
    if (this.indexed.length === 0) return;
    const runRows = this.input.runRows ?? RUN_ROWS;
    for (let done = 0; done < count;) {
      this.run ??= new RunIndexer(this.input, this.indexed, runRows);
      const take = this.run.add(first + done, count - done, done, chunk, values);
      done += take;
      if (this.run.full) this.endRun();
    }
  }

  private endRun(): void {
    const run = this.run;
    if (!run) return;
    this.run = null;
    const range = run.postingRows;
    if (range) this.runs.add(run.finish(), range.first, range.last);
  }

  /**
   * Finishes the table file (unless written elsewhere), then the columns file (dictionaries,
   * the index merged from these runs and `elsewhere`'s, header). Returns the bytes written.
   * Nothing is published: that is the caller's step.
   */
  finish(elsewhere: readonly RunsDescription[] = []): { storedBytes: number; indexedColumns: string[] } {
    try {
      if (this.nextRow !== this.input.rows + 1) throw new Error(`${this.nextRow - 1} of ${this.input.rows} rows arrived`);
      this.endRun();
      let stored = this.table?.finish() ?? 0;
      // Row 0 does not exist: code 0 (NULL) and not live.
      for (const section of this.codesSections) this.columnsFile.writeInto(section, 0, new Uint8Array(4));
      this.columnsFile.writeInto(this.liveSection, 0, new Uint8Array(1));
      const columns: ColumnsHeader['columns'][number][] = this.input.columns.map((c, i) => ({
        id: c.id,
        type: c.type.name,
        ...this.dictionaries[i]!.finish(),
        codesSection: this.codesSections[i]!,
        ...(c.mayRepeat ? { mayRepeat: true } : {}),
      }));
      const text = this.runs.mergeInto(this.columnsFile, this.input.dir, this.label, elsewhere);
      const terms = this.columnTerms.flatMap((b) => (b ? [b.finish()] : []));
      const dictionaryTerms = writeColumnTerms(terms, (bytes) => this.columnsFile.append(bytes));
      const header: ColumnsFileHeader = {
        columns: { maxRowId: this.input.rows, columns, liveSection: this.liveSection },
        text: { meta: text.meta, sections: text.sections, indexedColumns: this.indexedColumns, dictionaryTerms },
        ftsLanguage: this.input.ftsLanguage,
      };
      stored += this.columnsFile.finish({ ...header });
      this.pieces.remove();
      return { storedBytes: stored, indexedColumns: this.indexedColumns };
    } catch (err) {
      this.abort();
      throw err;
    }
  }

  /** Removes everything written so far (a failed or cancelled import). */
  abort(): void {
    this.table?.abort();
    this.columnsFile.abort();
    this.runs.remove();
    this.pieces.remove();
  }
}

function bytesOf(a: Uint32Array | Float64Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Room for the columns file's header: a generous bound from the columns' names. */
function headerRoom(columns: readonly StreamedColumn[]): number {
  let bytes = 8192;
  for (const c of columns) {
    const chunks = Math.ceil(c.entries / DICTIONARY_CHUNK) + 1;
    // The id twice more and ~350 bytes for a dictionary term table's entry (stored-column-terms.ts).
    bytes += JSON.stringify(c.id).length * 4 + 800 + (6 + chunks) * 48;
  }
  return headRoom(bytes);
}

/** A chunk's view of a column's values: the dictionary known up front, then what arrived. */
class ChunkValues {
  constructor(
    private readonly dictionary: readonly StoredValue[],
    /** The code of `arrived[0]`. */
    private readonly base: number,
    private readonly arrived: readonly StoredValue[],
  ) {}

  valueOf(code: number): StoredValue {
    return code < this.dictionary.length ? this.dictionary[code]! : this.arrived[code - this.base]!;
  }
}

/**
 * One column's dictionary section(s) in the columns file, written as its entries arrive, in
 * the forms column-codec.ts reads: `f64` for numbers; `utf8` (value ends, UTF-8 bytes and,
 * for numeric/int8, a flag per entry that is a number) for texts; `json-chunks` when a text
 * cannot go through UTF-8 (a lone surrogate, only possible from JSON input). Sections whose
 * size is known up front (doubles, value ends) are filled in place; the others grow as pieces
 * of a spool all columns share (one file and buffer however many columns) and are copied in
 * at the end. A numeric/int8 column keeps its doubles too, until a value that needs its exact
 * text (`2.50`) arrives.
 */
class DictionaryWriter {
  private readonly numbers: boolean;
  private readonly exact: boolean;
  /** Number columns: the f64 section. */
  private readonly doubles: number | null = null;
  /** Text columns: the value ends section. */
  private readonly endsSection: number | null = null;
  /** numeric/int8: doubles, ends and flags as pieces; texts' bytes as pieces. */
  private f64Pieces: SpoolPiece[] | null = null;
  private readonly endPieces: SpoolPiece[] = [];
  private readonly flagPieces: SpoolPiece[] = [];
  private readonly textPieces: SpoolPiece[] = [];
  private textBytes = 0;
  /** Entries that UTF-8 cannot carry, by code: the column then falls back to JSON. */
  private readonly unencodable = new Map<number, string>();
  private count = 1; // the NULL slot

  constructor(
    column: StreamedColumn,
    private readonly out: ContainerWriter,
    private readonly pieces: PieceSpool,
  ) {
    this.numbers = isStoredAsNumber(column.type.storage);
    this.exact = column.type.storage === 'exact';
    const entries = column.entries - 1;
    if (this.numbers) this.doubles = out.reserve(entries * 8);
    else if (this.exact) this.f64Pieces = [];
    else this.endsSection = out.reserve(entries * 4);
    this.add(column.dictionary.slice(1));
  }

  /** Entries known so far, NULL slot included: the code the next one gets. */
  get arrived(): number {
    return this.count;
  }

  add(values: readonly StoredValue[]): void {
    if (values.length === 0) return;
    if (this.doubles !== null || this.f64Pieces) {
      const doubles = new Float64Array(values.length);
      let allNumbers = true;
      for (let i = 0; i < values.length; i++) {
        const v = values[i];
        if (typeof v === 'number') doubles[i] = v;
        else allNumbers = false;
      }
      if (this.doubles !== null) {
        if (!allNumbers) throw new Error('a number column received a text');
        this.out.writeInto(this.doubles, (this.count - 1) * 8, bytesOf(doubles));
      } else if (allNumbers) this.pieces.append(this.f64Pieces!, bytesOf(doubles));
      else this.f64Pieces = null; // an exact text: the UTF-8 form keeps numbers and texts alike
    }
    if (!this.numbers) this.addTexts(values);
    this.count += values.length;
  }

  private addTexts(values: readonly StoredValue[]): void {
    const ends = new Uint32Array(values.length);
    const flags = this.exact ? new Uint8Array(values.length) : null;
    let bytes = Buffer.allocUnsafe(values.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length * 3 : 24), 0));
    let used = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      let text: string;
      if (typeof v === 'number' && flags) {
        flags[i] = 1;
        text = String(v);
      } else if (typeof v === 'string') {
        text = v;
        if (!isWellFormed(v)) this.unencodable.set(this.count + i, v);
      } else throw new Error(`a text dictionary received ${v === null ? 'NULL' : typeof v}`);
      if (used + text.length * 3 > bytes.length) {
        const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, used + text.length * 3));
        bytes.copy(grown, 0, 0, used);
        bytes = grown;
      }
      used += bytes.write(text, used, 'utf8');
      ends[i] = this.textBytes + used;
    }
    // Value ends are 32-bit (column-codec.ts): the largest table Deskstore accepts says so first.
    if (this.textBytes + used > 0xffff_ffff) throw new Error('a column holds more than 4 GB of text');
    this.textBytes += used;
    if (this.endsSection !== null) this.out.writeInto(this.endsSection, (this.count - 1) * 4, bytesOf(ends));
    else this.pieces.append(this.endPieces, bytesOf(ends));
    this.pieces.append(this.textPieces, bytes.subarray(0, used));
    if (flags) this.pieces.append(this.flagPieces, flags);
  }

  /** Appends the dictionary's sections; returns their place in the column's header entry. */
  finish(): Pick<ColumnsHeader['columns'][number], 'dictionary' | 'dictionarySection' | 'textSection' | 'numberSection' | 'moreSections'> {
    if (this.doubles !== null) return { dictionary: 'f64', dictionarySection: this.doubles };
    if (this.f64Pieces) return { dictionary: 'f64', dictionarySection: this.out.appendPieces(this.pieces, this.f64Pieces) };
    if (this.unencodable.size > 0) return this.finishAsJson();
    const dictionarySection = this.endsSection ?? this.out.appendPieces(this.pieces, this.endPieces);
    const textSection = this.out.appendPieces(this.pieces, this.textPieces);
    return {
      dictionary: 'utf8',
      dictionarySection,
      textSection,
      ...(this.exact ? { numberSection: this.out.appendPieces(this.pieces, this.flagPieces) } : {}),
    };
  }

  /** The JSON form (column-codec.ts `json-chunks`), rebuilt from what was written. */
  private finishAsJson(): ReturnType<DictionaryWriter['finish']> {
    const endBytes = this.endsSection !== null ? this.out.readBack(this.endsSection) : this.pieces.read(this.endPieces);
    const ends = new Uint32Array(endBytes.buffer, endBytes.byteOffset, endBytes.byteLength / 4);
    const dictionary = Utf8Dictionary.checked(
      ends,
      this.pieces.read(this.textPieces),
      this.exact ? this.pieces.read(this.flagPieces) : null,
    );
    if (typeof dictionary === 'string') throw new Error(dictionary);
    const values = dictionary.materialize();
    for (const [code, text] of this.unencodable) values[code] = text;
    const sections: number[] = [];
    for (let start = 0; start < values.length; start += DICTIONARY_CHUNK) {
      sections.push(this.out.append(Buffer.from(JSON.stringify(values.slice(start, start + DICTIONARY_CHUNK)))));
    }
    // The reserved ends stay in the file unused: this form lists every value in its JSON.
    const [dictionarySection, ...more] = sections as [number, ...number[]];
    return { dictionary: more.length ? 'json-chunks' : 'json', dictionarySection, ...(more.length ? { moreSections: more } : {}) };
  }
}

/** ES2024's String.prototype.isWellFormed (the project's lib setting is ES2023). */
function isWellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/**
 * The full-text index of one run of consecutive rows over the indexed columns. A repetitive
 * column's values are tokenized once per run (the first row holding each), like
 * build-text-index.ts does for a whole table. Values already indexed elsewhere
 * (`indexedElsewhere`) are left out here.
 */
class RunIndexer {
  private readonly builder: PostingsBuilder;
  private readonly interner: TermInterner;
  private readonly caches: Map<number, TokenCache> = new Map();
  /** Per indexed column: from which row its arriving values are indexed elsewhere. */
  private readonly elsewhereFrom: number[];
  private readonly terms: number[] = [];
  private rows = 0;
  private first = 0;
  private last = 0;

  constructor(
    private readonly input: StreamedVersionInput,
    private readonly indexed: readonly number[],
    private readonly capacity: number,
  ) {
    this.builder = new PostingsBuilder({ expectedRows: capacity });
    this.interner = new TermInterner(input.ftsLanguage, this.builder);
    this.elsewhereFrom = indexed.map((c) => input.indexedElsewhere?.get(input.columns[c]!.id) ?? Infinity);
    for (const c of indexed) {
      const column = input.columns[c]!;
      if (column.entries === column.dictionary.length) this.caches.set(c, new TokenCache(column.dictionary.length));
    }
  }

  /** The run has its rows or its postings: finish it and start another. */
  get full(): boolean {
    return this.rows >= this.capacity || this.builder.postingCount >= MAX_RUN_POSTINGS;
  }

  /** The first and last row that got a posting, or null for a run without any. */
  get postingRows(): { first: number; last: number } | null {
    return this.first ? { first: this.first, last: this.last } : null;
  }

  /**
   * Indexes rows from `firstRow` (position `from` of the chunk) until the chunk's `count` rows
   * are done or the run is full; returns how many it took.
   */
  add(firstRow: number, count: number, from: number, chunk: readonly ColumnChunk[], values: readonly ChunkValues[]): number {
    const language = this.input.ftsLanguage;
    const columns = this.input.columns;
    const terms = this.terms;
    let k = 0;
    for (; k < count && !this.full; k++) {
      const at = from + k;
      const rowId = firstRow + k;
      let n = 0;
      for (let i = 0; i < this.indexed.length; i++) {
        const c = this.indexed[i]!;
        const code = chunk[c]!.codes[at]!;
        if (code === 0) continue;
        const column = columns[c]!;
        if (code >= column.dictionary.length && rowId >= this.elsewhereFrom[i]!) continue;
        const storage = column.type.storage;
        const cache = this.caches.get(c);
        if (cache) n = cache.termsOf(code, terms, n, () => documentText(values[c]!.valueOf(code), storage), language, this.interner);
        else n = documentTermIds(documentText(values[c]!.valueOf(code), storage), language, this.interner, terms, n);
      }
      this.rows++;
      if (n === 0) continue;
      this.builder.addRow(rowId, terms, n);
      if (!this.first) this.first = rowId;
      this.last = rowId;
    }
    return k;
  }

  finish(): ReturnType<PostingsBuilder['finish']> {
    return this.builder.finish();
  }
}

/** Term ids of each distinct value of a column, tokenized the first time a row holds it. */
class TokenCache {
  private readonly start: Int32Array;
  private readonly length: Uint32Array;
  private flat = new Uint32Array(1024);
  private used = 0;
  private readonly scratch: number[] = [];

  constructor(entries: number) {
    this.start = new Int32Array(entries).fill(-1);
    this.length = new Uint32Array(entries);
  }

  termsOf(code: number, out: number[], at: number, text: () => string, language: TextSearchLanguage, interner: TermInterner): number {
    let s = this.start[code]!;
    if (s < 0) {
      const n = documentTermIds(text(), language, interner, this.scratch, 0);
      if (this.used + n > this.flat.length) {
        const grown = new Uint32Array(Math.max(this.used + n, this.flat.length * 2));
        grown.set(this.flat.subarray(0, this.used));
        this.flat = grown;
      }
      for (let i = 0; i < n; i++) this.flat[this.used + i] = this.scratch[i]!;
      s = this.used;
      this.start[code] = s;
      this.length[code] = n;
      this.used += n;
    }
    let k = at;
    for (let i = s, end = s + this.length[code]!; i < end; i++) out[k++] = this.flat[i]!;
    return k;
  }
}
