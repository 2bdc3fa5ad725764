import { useRef, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField, DatastoreRecord } from '../../../../shared/wire/search';
import { formatCellText, isNumericType } from '../../format/cell';
import { useLocale } from '../../hooks/use-locale';
import { EMPTY_LAYOUT, type ColumnLayout } from './column-layout';
import { GridHeader, type GridHeaderProps } from './GridHeader';
import { isSelected } from './grid-selection';
import type { RowSource } from './row-source';
import { ROW_HEIGHT, useDataGrid, type DataGridState } from './use-data-grid';
import { rowOffset } from './virtual-window';

/**
 * What a view over the grid adds to one cell (the Changes view): other text to show, a class,
 * and an earlier value shown when the cell is hovered or active and read out with it.
 */
export interface CellDecoration {
  readonly text?: string;
  readonly className?: string;
  readonly before?: string;
}

export type DecorateCell = (record: DatastoreRecord, fieldId: string) => CellDecoration | undefined;

interface Props extends Omit<GridHeaderProps, 'widths' | 'offsets' | 'frozen'> {
  readonly store: RowSource;
  readonly decorate?: DecorateCell;
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
 * Ctrl+C copies the selected cells as TSV; the first columns can stay in view
 * (behaviour in use-data-grid.ts).
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
  decorate,
}: Props) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const header = useRef<HTMLDivElement>(null);
  const grid = useDataGrid({ store, fields, layout, onTopRow, onOpenRow, scroller, header });
  const { win, selection: sel, gridId } = grid;
  const rows = [];
  for (let index = win.first; index <= win.last; index++) {
    rows.push(
      <GridRow
        key={index}
        index={index}
        record={store.rowAt(index)}
        fields={fields}
        grid={grid}
        onOpenRow={onOpenRow}
        decorate={decorate}
      />,
    );
  }
  const activeId =
    sel && sel.active.row >= win.first && sel.active.row <= win.last ? grid.cellId(sel.active.row, sel.active.col) : undefined;
  const style = { '--grid-columns': grid.widths.map((w) => `${w}px`).join(' ') } as CSSProperties;
  return (
    <div
      ref={scroller}
      className="grid-scroll"
      tabIndex={0}
      onScroll={grid.onScroll}
      onKeyDown={grid.onKeyDown}
      style={style}
      role="grid"
      aria-readonly="true"
      aria-multiselectable="true"
      aria-label={label}
      aria-rowcount={grid.total + 1}
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
          widths={grid.widths}
          offsets={grid.offsets}
          frozen={grid.frozen}
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
        {grid.copied}
      </p>
    </div>
  );
}

interface RowProps {
  readonly index: number;
  /** Undefined while its page loads. */
  readonly record: DatastoreRecord | undefined;
  readonly fields: readonly DatastoreField[];
  readonly grid: DataGridState;
  readonly onOpenRow?: ((record: DatastoreRecord) => void) | undefined;
  readonly decorate?: DecorateCell | undefined;
}

/** One row of cells, placed at its offset in the scrolled body. */
function GridRow({ index, record, fields, grid, onOpenRow, decorate }: RowProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const { frozen, offsets, selection: sel } = grid;
  const stickyStyle = (col: number): CSSProperties | undefined =>
    col > 0 && col <= frozen ? { position: 'sticky', left: `${offsets[col]}px`, zIndex: 1 } : undefined;
  const y = rowOffset(index, grid.win, grid.scrollTop, ROW_HEIGHT);
  return (
    <div
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
        const decoration = record ? decorate?.(record, field.id) : undefined;
        const formatted = record
          ? formatCellText(value, field.type, locale, labels, grid.numberStyles.get(field.id))
          : { text: '', full: null };
        const text = decoration?.text ?? formatted.text;
        const full = formatted.full;
        const classes = ['grid-cell'];
        if (decoration?.className) classes.push(decoration.className);
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
            id={grid.cellId(index, col)}
            role="gridcell"
            aria-colindex={col + 1}
            aria-selected={selected}
            className={classes.join(' ')}
            data-field={field.id}
            title={decoration?.before ?? full ?? (text.length > 20 ? text : undefined)}
            data-full={full ?? undefined}
            aria-description={decoration?.before}
            style={stickyStyle(col)}
            onMouseDown={(e) => grid.onCellMouseDown(e, index, col)}
          >
            {text}
            {decoration?.before !== undefined && (
              <span className="cell-before" aria-hidden="true">
                {decoration.before}
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
}
