import type { FieldType } from '../field-types';
import type { StoredValue } from '../values/coerce';
import { Column } from './column';
import { rowsByRank, type RowOrder } from './sort-order';

/**
 * The in-memory column store of one resource: a Column per user field, plus which `_id`s are
 * live. `_id`s are never reused, so arrays indexed by `_id` stay valid across deletes; a
 * version counter lets caches of query results notice any write.
 */
export class TableStore {
  private liveArray: Uint8Array;
  private liveRows: number;
  private highestRowId: number;
  private readonly byId = new Map<string, Column>();
  private writeVersion = 0;
  /** Each sorted column's row order (sort-order.ts rowsByRank), until the next write. */
  private readonly orders = new Map<Column, RowOrder>();

  constructor(
    readonly columns: Column[],
    live: Uint8Array,
    maxRowId: number,
  ) {
    this.liveArray = live;
    this.highestRowId = maxRowId;
    let count = 0;
    for (let r = 1; r <= maxRowId; r++) count += live[r]!;
    this.liveRows = count;
    for (const c of columns) this.byId.set(c.id, c);
  }

  static empty(fields: readonly { id: string; type: FieldType }[]): TableStore {
    return new TableStore(
      fields.map((f) => Column.empty(f.id, f.type, 1024)),
      new Uint8Array(1024),
      0,
    );
  }

  get maxRowId(): number {
    return this.highestRowId;
  }
  get rowCount(): number {
    return this.liveRows;
  }
  get version(): number {
    return this.writeVersion;
  }
  get live(): Uint8Array {
    return this.liveArray;
  }

  /**
   * Every row id in `column`'s ascending order (rank, then `_id`), built at its first use and
   * kept until the next write: 4 bytes per row and per distinct value, for a column sorted over and over.
   */
  rowOrder(column: Column): RowOrder {
    let order = this.orders.get(column);
    if (!order) {
      order = rowsByRank(column.codes, column.sortRanks());
      this.orders.set(column, order);
    }
    return order;
  }

  /** Whether `column`'s row order is already built (using it then costs one pass). */
  hasRowOrder(column: Column): boolean {
    return this.orders.has(column);
  }

  /** Bytes of the row orders held (for the memory estimate). */
  get rowOrderBytes(): number {
    let bytes = 0;
    for (const order of this.orders.values()) bytes += order.rows.byteLength + order.starts.byteLength;
    return bytes;
  }

  column(id: string): Column | undefined {
    return this.byId.get(id);
  }

  isLive(rowId: number): boolean {
    return rowId > 0 && rowId <= this.highestRowId && this.liveArray[rowId] === 1;
  }

  /** Every live `_id`, ascending. */
  liveRowIds(): Uint32Array {
    const out = new Uint32Array(this.liveRows);
    let k = 0;
    const live = this.liveArray;
    for (let r = 1; r <= this.highestRowId; r++) if (live[r]) out[k++] = r;
    return out;
  }

  /** Adds a column (datastore_create on an existing table): NULL in every existing row. */
  addColumn(id: string, type: FieldType): Column {
    const column = Column.empty(id, type, this.liveArray.length);
    this.columns.push(column);
    this.byId.set(id, column);
    this.bump();
    return column;
  }

  removeColumn(id: string): void {
    const i = this.columns.findIndex((c) => c.id === id);
    if (i >= 0) this.columns.splice(i, 1);
    this.byId.delete(id);
    this.bump();
  }

  /** Writes a whole row under `rowId` (a new row, or every column of an existing one). */
  putRow(rowId: number, values: ReadonlyMap<string, StoredValue>): void {
    this.ensureCapacity(rowId + 1);
    for (const c of this.columns) c.set(rowId, values.get(c.id) ?? null);
    if (!this.liveArray[rowId]) {
      this.liveArray[rowId] = 1;
      this.liveRows++;
    }
    if (rowId > this.highestRowId) this.highestRowId = rowId;
    this.bump();
  }

  /** Changes some cells of a live row (partial update). */
  updateCells(rowId: number, values: ReadonlyMap<string, StoredValue>): void {
    for (const [id, value] of values) this.byId.get(id)?.set(rowId, value);
    this.bump();
  }

  deleteRow(rowId: number): void {
    if (!this.isLive(rowId)) return;
    this.liveArray[rowId] = 0;
    this.liveRows--;
    for (const c of this.columns) c.set(rowId, null);
    this.bump();
  }

  /** Drops every row but keeps the columns (datastore_delete with `filters: {}`). */
  truncate(): void {
    this.liveArray.fill(0);
    for (const c of this.columns) c.codes.fill(0);
    this.liveRows = 0;
    this.bump();
  }

  rowValues(rowId: number): Map<string, StoredValue> {
    const out = new Map<string, StoredValue>();
    for (const c of this.columns) out.set(c.id, c.valueOf(rowId));
    return out;
  }

  private ensureCapacity(size: number): void {
    if (size <= this.liveArray.length) return;
    const grown = new Uint8Array(Math.max(size, Math.ceil(this.liveArray.length * 1.5) + 1024));
    grown.set(this.liveArray);
    this.liveArray = grown;
    for (const c of this.columns) c.ensureCapacity(grown.length);
  }

  private bump(): void {
    this.writeVersion++;
    this.orders.clear();
  }
}
