import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreRecord } from '../../../../shared/wire/search';
import { copyText } from '../../components/clipboard';
import { formatCellText, isNumericType } from '../../format/cell';
import { numberStyleOf } from '../../format/number-style';
import { useLocale } from '../../hooks/use-locale';
import { columnWidths, EMPTY_LAYOUT, leftOffsets, type ColumnLayout } from './column-layout';
import { GridHeader, type GridHeaderProps } from './GridHeader';
import { isSelected, moveSelection, selectionBounds, type Selection } from './grid-selection';
import type { RowSource } from './row-source';
import { rowsAsTsv } from './tsv';
import { computeWindow, rowOffset } from './virtual-window';

export const ROW_HEIGHT = 32;
const OVERSCAN = 8;

interface Props extends Omit<GridHeaderProps, 'widths' | 'offsets' | 'frozen'> {
  readonly store: RowSource;
  readonly label: string;
  /** The row at the top of the viewport, for the API panel's offset. */
  readonly onTopRow?: (row: number) => void;
  /** Widths and frozen columns the user chose (the order is already applied to `fields`). */
  readonly layout?: ColumnLayout;
  /** Enter or a double click on a row. */
  readonly onOpenRow?: (record: DatastoreRecord) => void;
}

/**
 * The virtual table: only the rows in view (plus a few) are in the DOM, fetched page by page
 * as they scroll in. An ARIA grid: the scroll area takes focus, arrows move the active cell
 * (Shift extends the selection, Page Up/Down and Home/End jump), Enter opens the row,
 * Ctrl+C copies the selected cells as TSV; the first columns can stay in view.
 */
export function DataGrid({
  store,
  fields,
  sort,
  filters,
  openFilter,
  onSort,
  onFilter,
  label,
  onTopRow,
  layout = EMPTY_LAYOUT,
  onOpenRow,
  onResize,
  onMove,
}: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const gridId = useId();
  useSyncExternalStore(store.subscribe, store.getVersion);
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
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
  // so are the numbers' styles (ids without separators, a column's decimals kept)
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
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = 0;
  }, [store]);

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
    if (y < el.scrollTop) el.scrollTop = y;
    else if (y + ROW_HEIGHT > el.scrollTop + body) el.scrollTop = y + ROW_HEIGHT - body;
    document.getElementById(`${gridId}-r${sel.active.row}-c${sel.active.col}`)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [sel, size.viewport, size.header, gridId]);

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

  const labels = { yes: t('common.yes'), no: t('common.no') };
  const stickyStyle = (col: number): CSSProperties | undefined =>
    col > 0 && col <= frozen ? { position: 'sticky', left: `${offsets[col]}px`, zIndex: 1 } : undefined;
  const rows = [];
  for (let index = win.first; index <= win.last; index++) {
    const record = store.rowAt(index);
    const y = rowOffset(index, win, scrollTop, ROW_HEIGHT);
    rows.push(
      <div
        key={index}
        role="row"
        aria-rowindex={index + 2}
        className={`grid-row${index % 2 ? ' odd' : ''}`}
        style={{ transform: `translateY(${y}px)` }}
        data-testid="grid-row"
        onDoubleClick={() => {
          if (record && onOpenRow) onOpenRow(record);
        }}
      >
        {fields.map((field, col) => {
          const value = record?.[field.id];
          const { text, full } = record
            ? formatCellText(value, field.type, locale, labels, numberStyles.get(field.id))
            : { text: '', full: null };
          const classes = ['grid-cell'];
          if (isNumericType(field.type)) classes.push('num');
          if (field.id === '_id') classes.push('row-id');
          if (col > 0 && col <= frozen) classes.push('frozen');
          if (col === frozen && frozen > 0) classes.push('frozen-last');
          if (!record) classes.push('loading');
          else if (value === null || value === undefined) classes.push('null');
          if (full !== null) classes.push('rounded');
          const selected = isSelected(sel, index, col);
          if (selected) classes.push('selected');
          if (sel && sel.active.row === index && sel.active.col === col) classes.push('active');
          // long values are cut with an ellipsis, rounded numbers show fewer decimals: the whole value is in the tooltip
          return (
            <div
              key={field.id}
              id={cellId(index, col)}
              role="gridcell"
              aria-colindex={col + 1}
              aria-selected={selected}
              className={classes.join(' ')}
              data-field={field.id}
              title={full ?? (text.length > 20 ? text : undefined)}
              data-full={full ?? undefined}
              style={stickyStyle(col)}
              onMouseDown={(e) => onCellMouseDown(e, index, col)}
            >
              {text}
            </div>
          );
        })}
      </div>,
    );
  }

  const activeId = sel && sel.active.row >= win.first && sel.active.row <= win.last ? cellId(sel.active.row, sel.active.col) : undefined;
  const style = { '--grid-columns': widths.map((w) => `${w}px`).join(' ') } as CSSProperties;
  return (
    <div
      ref={scroller}
      className="grid-scroll"
      tabIndex={0}
      onScroll={onScroll}
      onKeyDown={onKeyDown}
      style={style}
      role="grid"
      aria-readonly="true"
      aria-multiselectable="true"
      aria-label={label}
      aria-rowcount={total + 1}
      aria-colcount={fields.length}
      aria-busy={store.loading}
      aria-activedescendant={activeId}
      aria-describedby={`${gridId}-help`}
      data-testid="data-grid"
    >
      <div ref={header} className="grid-header-wrap" role="rowgroup">
        <GridHeader
          fields={fields}
          sort={sort}
          filters={filters}
          openFilter={openFilter}
          onSort={onSort}
          onFilter={onFilter}
          widths={widths}
          offsets={offsets}
          frozen={frozen}
          onResize={onResize}
          onMove={onMove}
        />
      </div>
      <div className="grid-body" role="rowgroup" style={{ height: `${win.contentHeight}px` }}>
        {rows}
      </div>
      {store.total === 0 && (
        <p className="grid-empty" role="status">
          {t('table.noRows')}
        </p>
      )}
      <p id={`${gridId}-help`} className="visually-hidden">
        {onOpenRow ? t('grid.help') : t('grid.helpNoRow')}
      </p>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="grid-copied">
        {copied}
      </p>
    </div>
  );
}
