import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineApi } from '../engine/engine-api';
import { importIntoResource } from '../importer/import-job';
import type { ImportChoices, ImportProgress } from '../importer/import-types';
import { wordingOf } from '../importer/import-errors';
import { optional } from '../../shared/optional';
import { workerImportRunner } from '../importer/worker-runner';
import type { ImportJobStatus } from '../../shared/wire/import';
import { downloadToFile, type DownloadTimeouts } from './download';
import { StorageError } from '../errors';
import { storageFailure } from '../storage/storage-failure';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, isGeneratedId, pathInside, uniqueFileName } from '../storage/data-paths';

/**
 * Background loads of resource files into the DataStore, as CKAN's xloader does them: a
 * job per resource, queued, run in an import worker, reported through xloader_status.
 * A new job for a resource replaces (cancels) the previous one; a failed or cancelled job
 * leaves the resource's previous data as it was, because nothing is published until the
 * new version is complete.
 */
export interface FileJobSource {
  readonly kind: 'file';
  readonly path: string;
  readonly name: string;
  readonly owned: boolean;
}
export type JobSource = FileJobSource | { readonly kind: 'url'; readonly url: string };

/** A job's status as the status actions send it, with the members a running job always has. */
export interface JobStatus extends ImportJobStatus {
  readonly job_id: string;
  readonly created: string;
  readonly last_updated: string;
  readonly source: string;
}

interface Job {
  status: JobStatus;
  /** A file fetched from `source.url` (and its name), removed when the job ends. */
  downloaded?: { readonly path: string; readonly name: string };
  readonly source: JobSource;
  readonly choices: ImportChoices;
  readonly abort: AbortController;
}

export interface ImportJobsOptions {
  readonly engine: EngineApi;
  readonly importWorker: URL;
  readonly jobsDir: string;
  readonly maxDownloadBytes: number;
  /** Imports running at once; the rest wait (each one uses a core and a lot of memory). */
  readonly concurrency?: number;
  readonly downloadTimeouts?: DownloadTimeouts;
}

const nowIso = (): string => new Date().toISOString().replace('Z', '');

/** The rows the whole file holds, at the rate of rows per byte read so far (while reading). */
function rowsEstimate(p: ImportProgress): number | undefined {
  if (p.phase !== 'reading') return p.rows;
  if (p.bytes <= 0 || p.rows === 0) return undefined;
  return Math.max(p.rows, Math.round((p.rows / p.bytes) * p.totalBytes));
}

export class ImportJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly queue: string[] = [];
  private running = 0;

  /** Why loads cannot run (the jobs folder cannot be written), or null. */
  private readonly unavailable: string | null = null;

  constructor(private readonly opts: ImportJobsOptions) {
    try {
      mkdirSync(join(opts.jobsDir, 'staged'), { recursive: true, mode: PRIVATE_DIR_MODE });
      this.sweep();
    } catch (err) {
      this.unavailable = storageFailure(`Loads cannot run: ${opts.jobsDir}`, err).message;
    }
  }

  private checkAvailable(): void {
    if (this.unavailable) throw new StorageError(this.unavailable);
  }

  /**
   * Queues a load. An uploaded file must be moved out of the server's upload folder now
   * (the server deletes it after the request); `takeFile` does that.
   */
  start(resourceId: string, source: JobSource, choices: ImportChoices): JobStatus {
    this.checkAvailable();
    this.cancel(resourceId);
    const jobId = randomUUID();
    const created = nowIso();
    const job: Job = {
      source,
      choices,
      abort: new AbortController(),
      status: {
        job_id: jobId,
        resource_id: resourceId,
        status: 'pending',
        phase: 'queued',
        rows_done: 0,
        bytes_done: 0,
        bytes_total: 0,
        created,
        last_updated: created,
        error: null,
        source: source.kind === 'url' ? source.url : source.name,
      },
    };
    this.jobs.set(resourceId, job);
    if (source.kind === 'url') void this.download(job, source.url);
    else this.enqueue(job);
    return job.status;
  }

  /** Moves a file into the jobs folder, so the job owns it until it ends. */
  takeFile(path: string, name: string): FileJobSource {
    this.checkAvailable();
    const dest = pathInside(this.opts.jobsDir, uniqueFileName(name));
    renameSync(path, dest);
    return { kind: 'file', path: dest, name, owned: true };
  }

  /**
   * Keeps an uploaded file for a later load (the UI previews it, the user adjusts the
   * options, then resource_create names it): one upload, however big the file.
   */
  stage(path: string, name: string): { id: string; path: string } {
    this.checkAvailable();
    const id = randomUUID();
    const dest = pathInside(this.stagedDir, id);
    renameSync(path, dest);
    writeFileSync(`${dest}.json`, JSON.stringify({ name, staged: nowIso() }), { mode: PRIVATE_FILE_MODE });
    return { id, path: dest };
  }

  /** Where a staged upload is, to preview it again with other options. */
  stagedPath(id: string): string | null {
    if (!isGeneratedId(id)) return null;
    const path = pathInside(this.stagedDir, id);
    return existsSync(path) ? path : null;
  }

  /** The name a staged upload had on the user's machine (it helps recognise its format). */
  stagedName(id: string): string {
    const path = this.stagedPath(id);
    try {
      if (path) return (JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { name: string }).name;
    } catch {
      // the name only helps: the content decides the format
    }
    return 'upload';
  }

  /** The staged upload `id` as a job source (the job then owns and removes it). */
  takeStaged(id: string): FileJobSource | null {
    const path = this.stagedPath(id);
    if (!path) return null;
    const name = this.stagedName(id);
    rmSync(`${path}.json`, { force: true });
    return { kind: 'file', path, name, owned: true };
  }

  private get stagedDir(): string {
    return join(this.opts.jobsDir, 'staged');
  }

  /** Staged uploads nobody loaded within a day, and files of jobs a crash interrupted. */
  private sweep(): void {
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    for (const name of readdirSync(this.opts.jobsDir)) {
      if (name !== 'staged') rmSync(join(this.opts.jobsDir, name), { force: true, recursive: true });
    }
    for (const name of readdirSync(this.stagedDir)) {
      const path = join(this.stagedDir, name);
      if (statSync(path).mtimeMs < dayAgo) rmSync(path, { force: true });
    }
  }

  status(resourceId: string): JobStatus | null {
    return this.jobs.get(resourceId)?.status ?? null;
  }

  cancel(resourceId: string): boolean {
    const job = this.jobs.get(resourceId);
    if (!job || (job.status.status !== 'pending' && job.status.status !== 'running')) return false;
    job.abort.abort();
    this.update(job, { status: 'cancelled', phase: 'done', error: { message: 'Cancelled; the previous data is unchanged' } });
    const queued = this.queue.indexOf(resourceId);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.cleanup(job);
    }
    return true;
  }

  /** Cancels everything (shutdown). */
  cancelAll(): void {
    for (const id of [...this.jobs.keys()]) this.cancel(id);
  }

  private update(job: Job, change: Partial<JobStatus>): void {
    job.status = { ...job.status, ...change, last_updated: nowIso() };
  }

  private enqueue(job: Job): void {
    this.queue.push(job.status.resource_id);
    this.pump();
  }

  /**
   * Downloads run beside the import queue, not in it: a slow or stalled server delays only its
   * own load (and gives up after the download's timeouts), never the imports waiting behind.
   */
  private async download(job: Job, url: string): Promise<void> {
    const signal = job.abort.signal;
    this.update(job, { status: 'running', phase: 'downloading' });
    try {
      job.downloaded = await downloadToFile(
        url,
        this.opts.jobsDir,
        this.opts.maxDownloadBytes,
        signal,
        (done, total) => this.update(job, { bytes_done: done, bytes_total: total }),
        this.opts.downloadTimeouts,
      );
    } catch (err) {
      if (!signal.aborted) this.update(job, { status: 'error', phase: 'done', error: { message: (err as Error).message ?? String(err) } });
      return;
    }
    if (signal.aborted) {
      this.cleanup(job);
      return;
    }
    this.update(job, { status: 'pending', phase: 'queued' });
    this.enqueue(job);
  }

  private pump(): void {
    while (this.running < (this.opts.concurrency ?? 1) && this.queue.length) {
      const resourceId = this.queue.shift()!;
      const job = this.jobs.get(resourceId);
      if (!job || job.status.status !== 'pending') continue;
      this.running++;
      void this.run(job).finally(() => {
        this.running--;
        this.cleanup(job);
        this.pump();
      });
    }
  }

  private async run(job: Job): Promise<void> {
    const resourceId = job.status.resource_id;
    const signal = job.abort.signal;
    this.update(job, { status: 'running' });
    // A url job reaches the queue only once its file is downloaded.
    const { path: file, name } = job.downloaded ?? (job.source as FileJobSource);
    try {
      const result = await importIntoResource(
        this.opts.engine,
        file,
        resourceId,
        job.choices,
        workerImportRunner(this.opts.importWorker, signal),
        {
          displayName: name,
          onProgress: (p) =>
            this.update(job, {
              phase: p.phase,
              rows_done: p.rows,
              bytes_done: p.bytes,
              bytes_total: p.totalBytes,
              bytes_total_estimated: p.estimated,
              ...optional('rows_estimate', rowsEstimate(p)),
            }),
        },
      );
      if (signal.aborted) return;
      this.update(job, {
        status: 'complete',
        phase: 'done',
        rows_done: result.rows,
        rows_estimate: result.rows,
        repairs: result.repairs,
        warnings: result.warnings,
      });
    } catch (err) {
      if (signal.aborted) return; // cancel() already said so
      const worded = wordingOf(err);
      this.update(job, {
        status: 'error',
        phase: 'done',
        error: { message: (err as Error).message ?? String(err), ...optional('deskstore_message', worded) },
      });
    }
  }

  private cleanup(job: Job): void {
    if (job.downloaded) rmSync(job.downloaded.path, { force: true });
    if (job.source.kind === 'file' && job.source.owned) rmSync(job.source.path, { force: true });
  }
}
