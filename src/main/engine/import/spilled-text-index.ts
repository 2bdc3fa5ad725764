import { documentTermIds, PostingsBuilder, TermInterner, type TextSearchLanguage } from '../fts';
import { IndexRuns, type RunsDescription } from './index-runs';
import { MAX_RUN_POSTINGS } from './version-writer';

/**
 * Full-text index runs of texts an import spilled, built on the second core while the first
 * is still reading the file (importer/import-helper.ts). A column whose values are new in
 * nearly every row and are text whatever follows (its type can no longer change) is indexed
 * as its values go by; whether it is indexed at all is decided once the file is read, so each
 * column keeps runs of its own, merged into the columns file's index if the column is indexed
 * and dropped if not. The rows' other values are indexed by the version writer as usual.
 */
export class SpilledTextIndex {
  private readonly columns = new Map<string, ColumnRuns>();

  constructor(
    private readonly dir: string,
    private readonly label: string,
    private readonly language: TextSearchLanguage,
  ) {}

  /** Column `id`'s texts of rows `rowIds[0..count)` (ascending, after every earlier call's). */
  add(id: string, rowIds: Uint32Array, texts: readonly string[], count = texts.length): void {
    let runs = this.columns.get(id);
    if (!runs) this.columns.set(id, (runs = new ColumnRuns(this.dir, `${this.label}.spilled-${this.columns.size}`, this.language)));
    for (let i = 0; i < count; i++) runs.add(rowIds[i]!, texts[i]!);
  }

  /** Each column's runs, finished and described for the merge (their files stay until then). */
  finish(): Record<string, RunsDescription> {
    const out: Record<string, RunsDescription> = {};
    for (const [id, runs] of this.columns) out[id] = runs.finish();
    return out;
  }

  remove(): void {
    for (const runs of this.columns.values()) runs.remove();
    this.columns.clear();
  }
}

class ColumnRuns {
  private readonly runs: IndexRuns;
  private builder: PostingsBuilder | null = null;
  private interner: TermInterner | null = null;
  private readonly terms: number[] = [];
  private first = 0;
  private last = 0;

  constructor(
    dir: string,
    label: string,
    private readonly language: TextSearchLanguage,
  ) {
    this.runs = new IndexRuns(dir, label);
  }

  add(rowId: number, text: string): void {
    if (!this.builder) {
      this.builder = new PostingsBuilder({ expectedRows: 1 << 18 });
      this.interner = new TermInterner(this.language, this.builder);
    }
    const n = documentTermIds(text, this.language, this.interner!, this.terms, 0);
    if (n === 0) return;
    this.builder.addRow(rowId, this.terms, n);
    if (!this.first) this.first = rowId;
    this.last = rowId;
    if (this.builder.postingCount >= MAX_RUN_POSTINGS) this.endRun();
  }

  private endRun(): void {
    if (this.builder && this.first) this.runs.add(this.builder.finish(), this.first, this.last);
    this.builder = null;
    this.interner = null;
    this.first = 0;
    this.last = 0;
  }

  finish(): RunsDescription {
    this.endRun();
    return this.runs.describe();
  }

  remove(): void {
    this.runs.remove();
  }
}
