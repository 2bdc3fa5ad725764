import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { isNumericType } from '../../format/cell';
import { typeKey } from '../import/type-names';
import { columnLabel } from './columns';
import type { FilterValue, SortSpec } from './view-state';

export interface GridHeaderProps {
  readonly fields: readonly DatastoreField[];
  readonly sort: readonly SortSpec[];
  readonly filters: Readonly<Record<string, readonly FilterValue[]>>;
  readonly openFilter: string | null;
  readonly onSort: (field: string) => void;
  readonly onFilter: (field: string) => void;
}

export function GridHeader({ fields, sort, filters, openFilter, onSort, onFilter }: GridHeaderProps) {
  const { t } = useTranslation();
  return (
    <div className="grid-header" role="row" aria-rowindex={1}>
      {fields.map((field, index) => {
        const isId = field.id === '_id';
        const label = isId ? t('table.rowNumber') : columnLabel(field);
        const direction = sort.find((s) => s.field === field.id)?.dir;
        const filtered = (filters[field.id]?.length ?? 0) > 0;
        return (
          <div key={field.id} role="columnheader" aria-colindex={index + 1}
            aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}
            className={`grid-head-cell${isNumericType(field.type) ? ' num' : ''}${filtered ? ' is-filtered' : ''}`}
            data-field={field.id}>
            <button type="button" className="sort-button" onClick={() => onSort(field.id)}
              title={isId ? undefined : `${field.id}${field.info?.label && field.info.label !== field.id ? `\n${field.info.label}` : ''}`}
              aria-label={t('table.sortBy', { column: label })} data-testid="sort-button">
              <span className="head-label">{label}</span>
              <span className="head-meta">
                <span className="type-badge">{isId ? t('table.rowNumberType') : t(typeKey(field.type))}</span>
                <span className="sort-indicator" aria-hidden="true">{direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}</span>
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
