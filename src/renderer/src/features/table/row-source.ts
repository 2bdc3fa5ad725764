/**
 * What the virtual grid reads rows from: the server-paged RowPageStore of a table, or rows
 * already in memory (an SQL result). The grid subscribes with useSyncExternalStore.
 */
import type { DatastoreRecord } from '../../../../shared/wire/search';

export interface RowSource {
  readonly total: number | null;
  readonly error: unknown;
  /** The first rows, for column widths. */
  readonly sample: readonly DatastoreRecord[];
  readonly loading: boolean;
  subscribe: (listener: () => void) => () => void;
  getVersion: () => number;
  rowAt(index: number): DatastoreRecord | undefined;
  /** The rows [first, last] are on screen (a paged source fetches them). */
  request(first: number, last: number): void;
}

/** Rows held in memory, all available at once. */
export class StaticRowSource implements RowSource {
  readonly total: number;
  readonly error = null;
  readonly loading = false;
  readonly sample: readonly DatastoreRecord[];

  constructor(private readonly rows: readonly DatastoreRecord[]) {
    this.total = rows.length;
    this.sample = rows.slice(0, 200);
  }

  subscribe = (): (() => void) => () => undefined;
  getVersion = (): number => 0;
  rowAt(index: number): DatastoreRecord | undefined {
    return this.rows[index];
  }

  request(): void {
    // everything is here already
  }
}
