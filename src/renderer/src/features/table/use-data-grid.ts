import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField, DatastoreRecord } from '../../../../shared/wire/search';
import { copyText } from '../../components/clipboard';
import { isNumericType } from '../../format/cell';
import { numberStyleOf, type NumberStyle } from '../../format/number-style';
import { columnWidths, leftOffsets, type ColumnLayout } from './column-layout';
import { moveSelection, selectionBounds, type Selection } from './grid-selection';
import type { RowSource } from './row-source';
import { rowsAsTsv } from './tsv';
import { computeWindow, type WindowOutput } from './virtual-window';

export const ROW_HEIGHT = 32;
const OVERSCAN = 8;

interface Options {
  readonly store: RowSource;
  readonly fields: readonly DatastoreField[];
  readonly layout: ColumnLayout;
  readonly onTopRow?: ((row: number) => void) | undefined;
  readonly onOpenRow?: ((record: DatastoreRecord) => void) | undefined;
  /** The scroll area and its sticky header, measured for the rows that fit. */
  readonly scroller: RefObject<HTMLDivElement | null>;
  readonly header: RefObject<HTMLDivElement | null>;
}

export interface DataGridState {
  readonly gridId: string;
  readonly total: number;
  readonly scrollTop: number;
  readonly win: WindowOutput;
  readonly widths: readonly number[];
  readonly offsets: readonly number[];
  /** Columns after `_id` that stay in view. */
  readonly frozen: number;
  /** Each numeric column's style (ids without separators, a column's decimals kept). */
  readonly numberStyles: ReadonlyMap<string, NumberStyle>;
  readonly selection: Selection | null;
  /** What the last Ctrl+C copied, for the live region. */
  readonly copied: string;
  readonly cellId: (row: number, col: number) => string;
  readonly onScroll: () => void;
  readonly onKeyDown: (e: KeyboardEvent<HTMLDivElement>) => void;
  readonly onCellMouseDown: (e: MouseEvent, row: number, col: number) => void;
}

/**
 * The virtual grid's behaviour: which rows are in view (fetched page by page as they scroll
 * in), the column widths, the active cell and selection (arrows, Shift, Page Up/Down,
 * Home/End, a click), Enter to open a row and Ctrl+C to copy the selection as TSV.
 */
export function useDataGrid({ store, fields, layout, onTopRow, onOpenRow, scroller, header }: Options): DataGridState {
  const { t } = useTranslation();
  const gridId = useId();
  useSyncExternalStore(store.subscribe, store.getVersion);
  // The scroll position belongs to one query: a new store starts at the top.
  const [scroll, setScroll] = useState<{ store: RowSource; top: number }>({ store, top: 0 });
  const scrollTop = scroll.store === store ? scroll.top : 0;
  const [size, setSize] = useState({ viewport: 600, header: 64 });
  const [selection, setSelection] = useState<{ store: RowSource; sel: Selection } | null>(null);
  const sel = selection?.store === store ? selection.sel : null;
  const [copied, setCopied] = useState('');
  const total = store.total ?? 0;
  // Widths come from a sample page that changes only with the query: not recomputed per scroll.
  const widths = useMemo(() => columnWidths(fields, store.sample, layout), [fields, store.sample, layout]);
  const offsets = useMemo(() => leftOffsets(widths), [widths]);
  const frozen = Math.min(layout.frozen, fields.length - 1);
  // so are the numbers' styles
  const numberStyles = useMemo(
    () =>
      new Map(
        fields
          .filter((f) => isNumericType(f.type))
          .map((f) => [
            f.id,
            numberStyleOf(
              f,
              store.sample.map((r) => r[f.id]),
            ),
          ]),
      ),
    [fields, store.sample],
  );

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const measure = () =>
      setSize({
        viewport: el.clientHeight,
        header: header.current?.offsetHeight ?? 64,
      });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    if (header.current) observer.observe(header.current);
    return () => observer.disconnect();
  }, [scroller, header]);

  useLayoutEffect(() => {
    const el = scroller.current;
    el?.scrollTo({ top: 0 });
  }, [store, scroller]);

  const win = computeWindow({
    rowCount: total,
    rowHeight: ROW_HEIGHT,
    viewportHeight: size.viewport - size.header,
    scrollTop,
    overscan: OVERSCAN,
  });

  useEffect(() => {
    store.request(win.first, win.last);
  }, [store, win.first, win.last, total]);

  const topRow = Math.min(Math.round(win.topRow), Math.max(0, total - 1));
  useEffect(() => {
    const timer = window.setTimeout(() => onTopRow?.(topRow), 150);
    return () => window.clearTimeout(timer);
  }, [topRow, onTopRow]);

  const onScroll = () => {
    const el = scroller.current;
    if (el) setScroll({ store, top: el.scrollTop });
  };

  const cellId = (row: number, col: number) => `${gridId}-r${row}-c${col}`;
  // Keep the active cell on screen: vertically by scrolling the rows, sideways by the cell.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !sel) return;
    const y = sel.active.row * ROW_HEIGHT;
    const body = size.viewport - size.header;
    // scrollTo, not an assignment: the element belongs to the component that passed its ref
    if (y < el.scrollTop) el.scrollTo({ top: y });
    else if (y + ROW_HEIGHT > el.scrollTop + body) el.scrollTo({ top: y + ROW_HEIGHT - body });
    document.getElementById(`${gridId}-r${sel.active.row}-c${sel.active.col}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [sel, size.viewport, size.header, gridId, scroller]);

  const copySelection = async (current: Selection) => {
    const b = selectionBounds(current);
    const ids = fields.slice(b.left, b.right + 1).map((f) => f.id);
    const rows: DatastoreRecord[] = [];
    for (let r = b.top; r <= b.bottom; r++) {
      const record = store.rowAt(r);
      if (record) rows.push(record);
    }
    const ok = await copyText(rowsAsTsv(ids, rows));
    setCopied(ok ? t('grid.copied', { count: rows.length * ids.length, n: rows.length * ids.length }) : t('common.copyFailed'));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || total === 0) return;
    const current: Selection = sel ?? { active: { row: topRow, col: 0 }, anchor: { row: topRow, col: 0 } };
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c' && sel) {
      e.preventDefault();
      void copySelection(sel);
      return;
    }
    if (e.key === 'Enter' && sel) {
      const record = store.rowAt(sel.active.row);
      if (record && onOpenRow) {
        e.preventDefault();
        onOpenRow(record);
      }
      return;
    }
    const page = Math.max(1, Math.floor((size.viewport - size.header) / ROW_HEIGHT) - 1);
    const moved = moveSelection(
      current,
      e.key,
      { rows: total, cols: fields.length, page },
      { shift: e.shiftKey, ctrl: e.ctrlKey || e.metaKey },
    );
    // the first navigation key only shows where the cursor is: the top row's first cell
    const next = sel ? moved : moved ? current : null;
    if (!next) return;
    e.preventDefault();
    setSelection({ store, sel: next });
  };

  const onCellMouseDown = (e: MouseEvent, row: number, col: number) => {
    const wholeRow = fields[col]?.id === '_id';
    const start = wholeRow ? { row, col: 0 } : { row, col };
    const end = wholeRow ? { row, col: fields.length - 1 } : { row, col };
    if (e.shiftKey && sel) setSelection({ store, sel: { anchor: sel.anchor, active: wholeRow ? { row, col: fields.length - 1 } : end } });
    else setSelection({ store, sel: { anchor: start, active: end } });
  };

  return {
    gridId,
    total,
    scrollTop,
    win,
    widths,
    offsets,
    frozen,
    numberStyles,
    selection: sel,
    copied,
    cellId,
    onScroll,
    onKeyDown,
    onCellMouseDown,
  };
}
