import { useEffect, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCellText, isNumericType } from '../../format/cell';
import { numberStyleOf } from '../../format/number-style';
import { useLocale } from '../../hooks/use-locale';
import { gridTemplate } from './columns';
import { GridHeader, type GridHeaderProps } from './GridHeader';
import type { RowPageStore } from './row-pages';
import { computeWindow, rowOffset } from './virtual-window';

export const ROW_HEIGHT = 32;
const OVERSCAN = 8;

interface Props extends GridHeaderProps {
  readonly store: RowPageStore;
  readonly label: string;
  /** The row at the top of the viewport, for the API panel's offset. */
  readonly onTopRow?: (row: number) => void;
}

/**
 * The virtual table: only the rows in view (plus a few) are in the DOM, fetched page by page
 * from the server as they scroll in. Read-only table semantics (role=table) with the full
 * row count announced; the scroll area itself takes focus so arrows and Page Up/Down scroll.
 */
export function DataGrid({ store, fields, sort, filters, openFilter, onSort, onFilter, label, onTopRow }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  useSyncExternalStore(store.subscribe, store.getVersion);
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
  // The scroll position belongs to one query: a new store starts at the top.
  const [scroll, setScroll] = useState<{ store: RowPageStore; top: number }>({ store, top: 0 });
  const scrollTop = scroll.store === store ? scroll.top : 0;
  const [size, setSize] = useState({ viewport: 600, header: 64 });
  const total = store.total ?? 0;
  // Widths come from a sample page that changes only with the query: not recomputed per scroll.
  const columnWidths = useMemo(() => gridTemplate(fields, store.sample), [fields, store.sample]);
  // and so are the numbers' styles (ids without separators, a column's decimals kept)
  const numberStyles = useMemo(() => new Map(fields.filter((f) => isNumericType(f.type))
    .map((f) => [f.id, numberStyleOf(f, store.sample.map((r) => r[f.id]))])), [fields, store.sample]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const measure = () => setSize({
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
    rowCount: total, rowHeight: ROW_HEIGHT, viewportHeight: size.viewport - size.header, scrollTop, overscan: OVERSCAN,
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

  const labels = { yes: t('common.yes'), no: t('common.no') };
  const rows = [];
  for (let index = win.first; index <= win.last; index++) {
    const record = store.rowAt(index);
    const y = rowOffset(index, win, scrollTop, ROW_HEIGHT);
    rows.push(
      <div key={index} role="row" aria-rowindex={index + 2} className={`grid-row${index % 2 ? ' odd' : ''}`}
        style={{ transform: `translateY(${y}px)` }} data-testid="grid-row">
        {fields.map((field) => {
          const value = record?.[field.id];
          const { text, full } = record ? formatCellText(value, field.type, locale, labels, numberStyles.get(field.id)) : { text: '', full: null };
          const classes = ['grid-cell'];
          if (isNumericType(field.type)) classes.push('num');
          if (field.id === '_id') classes.push('row-id');
          if (!record) classes.push('loading');
          else if (value === null || value === undefined) classes.push('null');
          if (full !== null) classes.push('rounded');
          // long values are cut with an ellipsis, rounded numbers show fewer decimals: the whole value is in the tooltip
          return (
            <div key={field.id} role="cell" className={classes.join(' ')} data-field={field.id}
              title={full ?? (text.length > 20 ? text : undefined)} data-full={full ?? undefined}>
              {text}
            </div>
          );
        })}
      </div>,
    );
  }

  const style = { '--grid-columns': columnWidths } as CSSProperties;
  return (
    <div ref={scroller} className="grid-scroll" tabIndex={0} onScroll={onScroll} style={style}
      role="table" aria-label={label} aria-rowcount={total + 1} aria-colcount={fields.length} aria-busy={store.loading}
      data-testid="data-grid">
      <div ref={header} className="grid-header-wrap" role="rowgroup">
        <GridHeader fields={fields} sort={sort} filters={filters} openFilter={openFilter} onSort={onSort} onFilter={onFilter} />
      </div>
      <div className="grid-body" role="rowgroup" style={{ height: `${win.contentHeight}px` }}>
        {rows}
      </div>
      {store.total === 0 && <p className="grid-empty" role="status">{t('table.noRows')}</p>}
    </div>
  );
}
