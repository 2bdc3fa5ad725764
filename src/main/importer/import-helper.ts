import { Worker, type MessagePort } from 'node:worker_threads';
import { fromWireError, toWireError, type WireError } from '../errors';
import { importWorkerLimits, SpilledTextIndex, Spool, type RunsDescription, type TextSearchLanguage } from '../engine/importer-api';
import { readChunkAt, type ChunkPlace } from './row-spill';
import { writeTableFromSpill, type TableJob } from './table-from-spill';

/**
 * The import's second core (docs/importing.md, "Two cores"). While the first thread reads the
 * file, this worker indexes the texts of the columns that are text for sure and new in
 * nearly every row (the longest part of building the full-text index), chunk by chunk as the
 * rows are spilled; once the file is read, it writes the SQLite table file from the spilled
 * rows while the first thread writes the columns file. Both read the same spill file.
 */

type ToHelper =
  | { readonly kind: 'start'; readonly dir: string; readonly label: string; readonly language: TextSearchLanguage }
  | { readonly kind: 'texts'; readonly place: ChunkPlace; readonly firstRow: number; readonly columns: readonly SpilledTexts[] }
  | { readonly kind: 'texts-done'; readonly spill: string }
  | { readonly kind: 'table'; readonly job: TableJob };

type FromHelper =
  | { readonly kind: 'runs'; readonly runs: Record<string, RunsDescription> }
  | { readonly kind: 'table-done'; readonly bytes: number }
  | { readonly kind: 'failed'; readonly error: WireError };

/** One column of a chunk to index: its position in the chunk, its id, and where its spilled codes start. */
export interface SpilledTexts {
  readonly column: number;
  readonly id: string;
  readonly spillStart: number;
}

/** The first thread's side. */
export class ImportHelper {
  private readonly worker: Worker;
  private readonly waiting: { kind: FromHelper['kind']; resolve: (m: FromHelper) => void; reject: (e: unknown) => void }[] = [];
  private failure: unknown = null;

  constructor(workerUrl: URL, dir: string, label: string, language: TextSearchLanguage) {
    this.worker = new Worker(workerUrl, { workerData: { mode: 'helper' }, resourceLimits: importWorkerLimits() });
    this.worker.on('message', (m: FromHelper) => {
      if (m.kind === 'failed') return this.fail(fromWireError(m.error));
      const i = this.waiting.findIndex((w) => w.kind === m.kind);
      if (i >= 0) this.waiting.splice(i, 1)[0]!.resolve(m);
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) => this.fail(new Error(`the import's second worker stopped (exit code ${code})`)));
    this.send({ kind: 'start', dir, label, language });
  }

  /** Index these columns' spilled texts of one chunk. */
  texts(place: ChunkPlace, firstRow: number, columns: readonly SpilledTexts[]): void {
    this.send({ kind: 'texts', place, firstRow, columns });
  }

  /** The runs of every column indexed so far from `spill` (the file's last reading). */
  async textsDone(spill: string): Promise<Record<string, RunsDescription>> {
    const answer = this.expect('runs');
    this.send({ kind: 'texts-done', spill });
    return ((await answer) as Extract<FromHelper, { kind: 'runs' }>).runs;
  }

  /** Writes the table file; resolves with its size once it is in place. */
  async table(job: TableJob): Promise<number> {
    const answer = this.expect('table-done');
    this.send({ kind: 'table', job });
    return ((await answer) as Extract<FromHelper, { kind: 'table-done' }>).bytes;
  }

  stop(): Promise<number> {
    this.worker.removeAllListeners('exit');
    return this.worker.terminate();
  }

  private send(m: ToHelper): void {
    if (!this.failure) this.worker.postMessage(m);
  }

  private expect(kind: FromHelper['kind']): Promise<FromHelper> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiting.push({ kind, resolve, reject }));
  }

  private fail(err: unknown): void {
    this.failure ??= err;
    for (const w of this.waiting.splice(0)) w.reject(err);
  }
}

/** The worker's side: answers the first thread's messages in order. */
export function serveImportHelper(port: MessagePort): void {
  let texts: SpilledTextIndex | null = null;
  let dir = '';
  let label = '';
  let language: TextSearchLanguage = 'english';
  /** The spill the texts came from: a new one (the file read again) starts over. */
  let spillPath = '';
  let spill: Spool | null = null;
  const send = (m: FromHelper): void => port.postMessage(m);
  port.on('message', (m: ToHelper) => {
    try {
      switch (m.kind) {
        case 'start':
          ({ dir, label, language } = m);
          return;
        case 'texts': {
          if (m.place.path !== spillPath) {
            texts?.remove();
            spill?.close();
            texts = new SpilledTextIndex(dir, `${label}.pass-${Date.now().toString(36)}`, language);
            spillPath = m.place.path;
            spill = Spool.open(spillPath, 0);
          }
          indexChunk(texts!, readChunkAt(m.place, spill!), m.firstRow, m.columns);
          return;
        }
        case 'texts-done': {
          const runs = m.spill === spillPath && texts ? texts.finish() : {};
          spill?.close();
          spill = null;
          send({ kind: 'runs', runs });
          return;
        }
        case 'table':
          send({ kind: 'table-done', bytes: writeTableFromSpill(m.job) });
          return;
      }
    } catch (err) {
      send({ kind: 'failed', error: toWireError(err) });
    }
  });
}

function indexChunk(
  index: SpilledTextIndex,
  chunk: ReturnType<typeof readChunkAt>,
  firstRow: number,
  columns: readonly SpilledTexts[],
): void {
  const rowIds = new Uint32Array(chunk.rows);
  for (const { column, id, spillStart } of columns) {
    const codes = chunk.codes[column];
    const values = chunk.values[column];
    if (!codes || !values?.length) continue;
    let n = 0;
    for (let i = 0; i < chunk.rows; i++) if (codes[i]! >= spillStart) rowIds[n++] = firstRow + i;
    if (n !== values.length) throw new Error(`column ${id}: ${values.length} spilled values for ${n} rows`);
    index.add(id, rowIds, values, n);
  }
}
