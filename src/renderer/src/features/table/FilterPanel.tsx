import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import type { FacetValue } from '../../../../shared/wire/facets';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCell } from '../../format/cell';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDebounced } from '../../hooks/use-debounced';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from './columns';
import { facetPairs, type FilterValue, type SearchShape } from './view-state';
import { SidePanel } from '../../components/SidePanel';

interface Props {
  readonly shape: SearchShape;
  readonly field: DatastoreField;
  readonly selected: readonly FilterValue[];
  readonly onChange: (values: FilterValue[]) => void;
  readonly onClose: () => void;
}

const LIMIT = 200;

/**
 * Exact-value filter for one column: its distinct values with how many rows have each,
 * counted among the rows that match the search and the other columns' filters.
 */
export function FilterPanel({ shape, field, selected, onChange, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [contains, setContains] = useState('');
  const settled = useDebounced(contains, 200);
  const pairs = facetPairs(shape, field.id, settled, LIMIT);
  const facets = useAsync(JSON.stringify(pairs), (signal) => api.facets(pairs, { signal }));
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    search.current?.focus();
  }, [field.id]);
  const label = columnLabel(field);
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const isSelected = (v: FacetValue['value']) => selected.some((s) => s === v);
  const toggle = (value: FilterValue) => {
    onChange(isSelected(value) ? selected.filter((s) => s !== value) : [...selected, value]);
  };
  // chosen values first (in the order chosen), then the rest by count as the server sends them
  const all = facets.data?.values ?? [];
  const values = [...all.filter((f) => isSelected(f.value)), ...all.filter((f) => !isSelected(f.value))];
  return (
    <SidePanel title={t('filter.title', { column: label })} testId="filter-panel" className="filter-panel" onClose={onClose}>
      <label htmlFor={`${id}-contains`}>{t('filter.searchValues')}</label>
      <input ref={search} id={`${id}-contains`} type="search" value={contains} onChange={(e) => setContains(e.target.value)}
        data-testid="facet-search" />
      <p className="muted small" role="status" aria-live="polite">
        {facets.data ? t('filter.distinct', { count: facets.data.distinct, n: formatCount(facets.data.distinct, locale) }) : t('common.loading')}
      </p>
      {facets.error !== undefined && <ErrorNotice error={facets.error} onRetry={facets.reload} />}
      <fieldset className="facet-list" aria-busy={facets.loading}>
        <legend className="visually-hidden">{t('filter.values', { column: label })}</legend>
        {values.map((facet, i) => {
          const checkId = `${id}-v${i}`;
          const isNull = facet.value === null;
          const text = isNull ? t('filter.empty') : formatCell(facet.value, field.type, locale, labels);
          return (
            <div key={`${String(facet.value)}-${i}`} className={`facet${isNull ? ' facet-null' : ''}`}>
              <input type="checkbox" id={checkId} disabled={isNull} checked={!isNull && isSelected(facet.value)}
                onChange={() => { if (typeof facet.value !== 'object') toggle(facet.value); }} />
              <label htmlFor={checkId} title={isNull ? t('filter.emptyNote') : undefined}>
                <span className="facet-value">{text}</span>
                <span className="facet-count">{formatCount(facet.count, locale)}</span>
              </label>
            </div>
          );
        })}
        {facets.data && values.length === 0 && <p className="muted">{t('filter.noValues')}</p>}
        {facets.data && facets.data.distinct > values.length && (
          <p className="muted small">{t('filter.more', { shown: formatCount(values.length, locale), total: formatCount(facets.data.distinct, locale) })}</p>
        )}
      </fieldset>
      {selected.length > 0 && (
        <div className="selected-values">
          <p className="small">{t('filter.selected', { count: selected.length })}</p>
          <button type="button" className="button button-small" onClick={() => onChange([])}>{t('filter.clear')}</button>
        </div>
      )}
    </SidePanel>
  );
}
