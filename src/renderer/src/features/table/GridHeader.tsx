import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { isNumericType } from '../../format/cell';
import { typeKey } from '../import/type-names';
import { columnLabel } from './columns';
import type { FilterChoice, SortSpec } from './view-state';

export interface GridHeaderProps {
  readonly fields: readonly DatastoreField[];
  readonly sort: readonly SortSpec[];
  readonly filters: Readonly<Record<string, readonly FilterChoice[]>>;
  readonly openFilter: string | null;
  /** `add`: Shift was held, the column joins the sort instead of replacing it. */
  readonly onSort: (field: string, add: boolean) => void;
  readonly onFilter: (field: string) => void;
}

export function GridHeader({ fields, sort, filters, openFilter, onSort, onFilter }: GridHeaderProps) {
  const { t } = useTranslation();
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
        const sortState = direction === undefined ? '' : sort.length > 1
          ? t(`table.sortedNth.${direction}`, { n: rank + 1 }) : t(`table.sorted.${direction}`);
        const names = isId ? '' : `${field.id}${field.info?.label && field.info.label !== field.id ? `\n${field.info.label}` : ''}\n`;
        return (
          <div key={field.id} role="columnheader" aria-colindex={index + 1} aria-sort={ariaSort}
            className={`grid-head-cell${isNumericType(field.type) ? ' num' : ''}${filtered ? ' is-filtered' : ''}`}
            data-field={field.id} data-sort-rank={direction ? rank + 1 : undefined}>
            <button type="button" className="sort-button" onClick={(e) => onSort(field.id, e.shiftKey)}
              title={`${names}${t('table.sortHint')}`}
              aria-label={`${t('table.sortBy', { column: label })}${sortState ? `, ${sortState}` : ''}`} data-testid="sort-button">
              <span className="head-label">{label}</span>
              <span className="head-meta">
                <span className="type-badge">{isId ? t('table.rowNumberType') : t(typeKey(field.type))}</span>
                <span className="sort-indicator" aria-hidden="true">
                  {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
                  {direction && sort.length > 1 ? <sub className="sort-rank">{rank + 1}</sub> : null}
                </span>
              </span>
            </button>
            {!isId && (
              <button type="button" className={`filter-button${filtered ? ' active' : ''}`}
                aria-label={filtered ? t('table.filterActive', { column: label, count: filters[field.id]!.length }) : t('table.filterBy', { column: label })}
                aria-expanded={openFilter === field.id} data-testid="filter-button" onClick={() => onFilter(field.id)}>
                <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
                  <path d="M1.5 2h13l-5 6v5l-3 1.5V8z" fill={filtered ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
                </svg>
              </button>
            )}
          </div>
        );
      })}
    </div>
  );
}
