import { useRef, type CSSProperties, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { isNumericType } from '../../format/cell';
import { typeKey } from '../import/type-names';
import { MAX_WIDTH, MIN_WIDTH } from './column-layout';
import { columnLabel } from './columns';
import type { FilterChoice, SortSpec } from './view-state';

export interface GridHeaderProps {
  readonly fields: readonly DatastoreField[];
  readonly sort: readonly SortSpec[];
  readonly filters: Readonly<Record<string, readonly FilterChoice[]>>;
  readonly openFilter: string | null;
  /** `add`: Shift was held, the column joins the sort instead of replacing it. */
  readonly onSort: (field: string, add: boolean) => void;
  /** Absent: no filter buttons (a result that cannot be filtered, e.g. SQL). */
  readonly onFilter?: ((field: string) => void) | undefined;
  /** Column widths in pixels and left offsets (for the frozen columns). */
  readonly widths?: readonly number[];
  readonly offsets?: readonly number[];
  /** Columns after `_id` that stay in view. */
  readonly frozen?: number;
  /** A column's new width while dragging (`done` when the drag ends); absent: no resizing. */
  readonly onResize?: ((field: string, width: number, done: boolean) => void) | undefined;
  /** Drop `field` where `target` is; absent: no reordering. */
  readonly onMove?: ((field: string, target: string) => void) | undefined;
}

const DRAG_TYPE = 'application/x-deskstore-column';

export function GridHeader({
  fields,
  sort,
  filters,
  openFilter,
  onSort,
  onFilter,
  widths,
  offsets,
  frozen = 0,
  onResize,
  onMove,
}: GridHeaderProps) {
  const { t } = useTranslation();
  const drag = useRef<{ field: string; startX: number; startWidth: number } | null>(null);
  const startResize = (e: PointerEvent<HTMLDivElement>, field: string, width: number) => {
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { field, startX: e.clientX, startWidth: width };
  };
  const widthAt = (x: number) => {
    const d = drag.current!;
    return Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, Math.round(d.startWidth + x - d.startX)));
  };
  const resizeKeys = (e: KeyboardEvent<HTMLDivElement>, field: string, width: number) => {
    const step = e.shiftKey ? 64 : 16;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      onResize?.(field, Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, width + (e.key === 'ArrowLeft' ? -step : step))), true);
    }
  };
  // Alt+Arrow on a column's sort button moves the column: reordering without a mouse.
  const moveKeys = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    if (!onMove || !e.altKey || (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight')) return;
    const neighbour = fields[index + (e.key === 'ArrowLeft' ? -1 : 1)];
    const field = fields[index];
    if (!neighbour || !field || neighbour.id === '_id') return;
    e.preventDefault();
    onMove(field.id, neighbour.id);
    const id = field.id;
    requestAnimationFrame(() =>
      document.querySelector<HTMLButtonElement>(`[role="columnheader"][data-field="${CSS.escape(id)}"] .sort-button`)?.focus(),
    );
  };
  return (
    <div className="grid-header" role="row" aria-rowindex={1}>
      {fields.map((field, index) => {
        const isId = field.id === '_id';
        const label = isId ? t('table.rowNumber') : columnLabel(field);
        const rank = sort.findIndex((s) => s.field === field.id);
        const direction = sort[rank]?.dir;
        const filtered = (filters[field.id]?.length ?? 0) > 0;
        // aria-sort belongs on one header only: the first sort column; the others say their rank in their label
        const ariaSort = rank === 0 ? (direction === 'asc' ? 'ascending' : 'descending') : undefined;
        const sortState =
          direction === undefined
            ? ''
            : sort.length > 1
              ? t(`table.sortedNth.${direction}`, { n: rank + 1 })
              : t(`table.sorted.${direction}`);
        const names = isId
          ? ''
          : `${field.id}${field.info?.label && field.info.label !== field.id ? `\n${field.info.label}` : ''}${onMove ? `\n${t('grid.moveHint')}` : ''}\n`;
        const width = widths?.[index] ?? 0;
        const isFrozen = index > 0 && index <= frozen;
        const sticky: CSSProperties | undefined = isFrozen
          ? { position: 'sticky', left: `${offsets?.[index] ?? 0}px`, zIndex: 3 }
          : undefined;
        return (
          <div
            key={field.id}
            role="columnheader"
            aria-colindex={index + 1}
            aria-sort={ariaSort}
            className={`grid-head-cell${isNumericType(field.type) ? ' num' : ''}${filtered ? ' is-filtered' : ''}${isFrozen ? ' frozen' : ''}${isFrozen && index === frozen ? ' frozen-last' : ''}`}
            data-field={field.id}
            data-sort-rank={direction ? rank + 1 : undefined}
            style={sticky}
            onDragOver={(e) => {
              if (onMove && !isId && e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
            }}
            onDrop={(e) => {
              const from = e.dataTransfer.getData(DRAG_TYPE);
              if (from && onMove) {
                e.preventDefault();
                onMove(from, field.id);
              }
            }}
          >
            <button
              type="button"
              className="sort-button"
              onClick={(e) => onSort(field.id, e.shiftKey)}
              onKeyDown={(e) => moveKeys(e, index)}
              // the heading is what is dragged to move a column (the edge handle resizes it)
              draggable={Boolean(onMove) && !isId}
              onDragStart={(e) => {
                e.dataTransfer.setData(DRAG_TYPE, field.id);
                e.dataTransfer.effectAllowed = 'move';
              }}
              title={`${names}${t('table.sortHint')}`}
              aria-label={`${t('table.sortBy', { column: label })}${sortState ? `, ${sortState}` : ''}`}
              data-testid="sort-button"
            >
              <span className="head-label">{label}</span>
              <span className="head-meta">
                <span className="type-badge">{isId ? t('table.rowNumberType') : t(typeKey(field.type))}</span>
                <span className="sort-indicator" aria-hidden="true">
                  {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
                  {direction && sort.length > 1 ? <sub className="sort-rank">{rank + 1}</sub> : null}
                </span>
              </span>
            </button>
            {!isId && onFilter && (
              <button
                type="button"
                className={`filter-button${filtered ? ' active' : ''}`}
                aria-label={
                  filtered
                    ? t('table.filterActive', { column: label, count: filters[field.id]!.length })
                    : t('table.filterBy', { column: label })
                }
                aria-expanded={openFilter === field.id}
                data-testid="filter-button"
                onClick={() => onFilter(field.id)}
              >
                <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
                  <path
                    d="M1.5 2h13l-5 6v5l-3 1.5V8z"
                    fill={filtered ? 'currentColor' : 'none'}
                    stroke="currentColor"
                    strokeWidth="1.4"
                    strokeLinejoin="round"
                  />
                </svg>
              </button>
            )}
            {onResize && widths && (
              <div
                role="separator"
                aria-orientation="vertical"
                tabIndex={0}
                className="resize-handle"
                aria-label={t('grid.resize', { column: label })}
                aria-valuenow={width}
                aria-valuemin={MIN_WIDTH}
                aria-valuemax={MAX_WIDTH}
                data-testid="resize-handle"
                onPointerDown={(e) => startResize(e, field.id, width)}
                onPointerMove={(e) => {
                  if (drag.current?.field === field.id) onResize(field.id, widthAt(e.clientX), false);
                }}
                onPointerUp={(e) => {
                  if (drag.current?.field === field.id) {
                    onResize(field.id, widthAt(e.clientX), true);
                    drag.current = null;
                  }
                }}
                onKeyDown={(e) => resizeKeys(e, field.id, width)}
              />
            )}
          </div>
        );
      })}
    </div>
  );
}
