/**
 * Server-side paging for the virtual table: rows are fetched in pages of PAGE_SIZE as they
 * scroll into view (from `datastore_search`, or another paged action: the Changes view's
 * `deskstore_changes`), a bounded number of pages is kept, and requests for pages that
 * scrolled out of view are aborted. One store per query (resource, search, filters, sort,
 * fields); the table subscribes with useSyncExternalStore.
 */
import { call } from '../../api/client';
import { isAbort } from '../../api/errors';
import type { DatastoreRecord } from '../../../../shared/wire/search';
import { searchParams, type SearchShape } from './view-state';

export const PAGE_SIZE = 200;
const MAX_PAGES = 60;
const MAX_PARALLEL = 4;
/** How long a jump's position must stay still before its pages are fetched. */
const SETTLE_MS = 200;

/** One page of rows: `records` from `offset`, and the total when `withTotal` asked for it. */
export type PageFetcher = (
  page: { readonly offset: number; readonly limit: number; readonly withTotal: boolean },
  signal: AbortSignal,
) => Promise<{ readonly records: readonly DatastoreRecord[]; readonly total?: number | null }>;

/** A datastore_search query, page by page. */
export function searchPages(shape: SearchShape): PageFetcher {
  return ({ offset, limit, withTotal }, signal) =>
    call('datastore_search', searchParams(shape, { limit, offset, includeTotal: withTotal }), { signal });
}

export class RowPageStore {
  private readonly pages = new Map<number, readonly DatastoreRecord[]>();
  private readonly inflight = new Map<number, AbortController>();
  private readonly listeners = new Set<() => void>();
  private wanted: { first: number; last: number } = { first: 0, last: 0 };
  private version = 0;
  private disposed = false;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  total: number | null = null;
  error: unknown = null;
  /** The first page, kept for good (column widths are measured on it, so they never jump). */
  sample: readonly DatastoreRecord[] = [];

  private readonly fetch: PageFetcher;

  constructor(source: SearchShape | PageFetcher) {
    this.fetch = typeof source === 'function' ? source : searchPages(source);
  }

  /** Loads the first page (with the total). Called from an effect, not the constructor, so
   * a store React creates and throws away during rendering never fetches. */
  start(): void {
    this.disposed = false;
    if (this.total === null && !this.inflight.has(0)) this.fetchPage(0);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = (): number => this.version;

  rowAt(index: number): DatastoreRecord | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  get loading(): boolean {
    return this.inflight.size > 0;
  }

  /**
   * The rows [first, last] are on screen (or about to be). Scrolling on from the rows already
   * here fetches at once; a jump (the scrollbar dragged far, Page Down held) waits until the
   * position has been still for SETTLE_MS, so only the pages where it stops are fetched,
   * not every page passed on the way.
   */
  request(first: number, last: number): void {
    if (this.disposed || this.total === null) return;
    const end = Math.min(last, this.total - 1);
    if (end < first) return;
    const firstPage = Math.floor(first / PAGE_SIZE);
    const lastPage = Math.floor(end / PAGE_SIZE);
    this.wanted = { first: firstPage, last: lastPage };
    for (const [page, controller] of this.inflight) {
      if (page < firstPage - 1 || page > lastPage + 1) {
        controller.abort();
        this.inflight.delete(page);
      }
    }
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    if (this.near(firstPage - 1, lastPage + 1)) this.fetchWanted();
    else
      this.settleTimer = setTimeout(() => {
        this.settleTimer = null;
        if (!this.disposed) this.fetchWanted();
      }, SETTLE_MS);
  }

  /** A page in [from, to] is here: the view scrolled on from rows already shown. */
  private near(from: number, to: number): boolean {
    for (let page = from; page <= to; page++) if (this.pages.has(page)) return true;
    return false;
  }

  private fetchWanted(): void {
    for (let page = this.wanted.first; page <= this.wanted.last; page++) {
      if (this.inflight.size >= MAX_PARALLEL) break;
      if (!this.pages.has(page) && !this.inflight.has(page)) this.fetchPage(page);
    }
  }

  /** Stops fetching (the view changed or closed); start() may revive it (React StrictMode). */
  dispose(): void {
    this.disposed = true;
    if (this.settleTimer !== null) clearTimeout(this.settleTimer);
    this.settleTimer = null;
    for (const controller of this.inflight.values()) controller.abort();
    this.inflight.clear();
  }

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  private fetchPage(page: number): void {
    const controller = new AbortController();
    this.inflight.set(page, controller);
    this.fetch({ limit: PAGE_SIZE, offset: page * PAGE_SIZE, withTotal: page === 0 }, controller.signal).then(
      (result) => {
        if (this.disposed || controller.signal.aborted) return;
        this.inflight.delete(page);
        if (page === 0) {
          this.total = result.total ?? result.records.length;
          this.sample = result.records;
        }
        this.pages.set(page, result.records);
        this.evict();
        this.changed();
        // pages that were wanted while the parallel limit was reached
        if (this.settleTimer === null) this.fetchWanted();
      },
      (err: unknown) => {
        this.inflight.delete(page);
        if (this.disposed || isAbort(err)) return;
        this.error = err;
        this.changed();
      },
    );
  }

  private evict(): void {
    if (this.pages.size <= MAX_PAGES) return;
    const centre = (this.wanted.first + this.wanted.last) / 2;
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const page of byDistance.slice(0, this.pages.size - MAX_PAGES)) this.pages.delete(page);
  }
}
