import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { DatastoreField } from '../../../../shared/wire/search';
import type { FacetValue } from '../../../../shared/wire/facets';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCell } from '../../format/cell';
import { numberStyleOf } from '../../format/number-style';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useDebounced } from '../../hooks/use-debounced';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from './columns';
import { EMPTY, NOT_EMPTY, sameChoice, toggleChoice, type FilterChoice } from './filter-choice';
import { facetParams, type SearchShape } from './view-state';
import { SidePanel } from '../../components/SidePanel';

interface Props {
  readonly shape: SearchShape;
  readonly field: DatastoreField;
  readonly selected: readonly FilterChoice[];
  readonly onChange: (values: FilterChoice[]) => void;
  readonly onClose: () => void;
}

const LIMIT = 200;

/**
 * Exact-value filter for one column: its distinct values with how many rows have each,
 * counted among the rows that match the search and the other columns' filters, and the two
 * blank choices "(empty)" and "(not empty)" (filter-choice.ts).
 */
export function FilterPanel({ shape, field, selected, onChange, onClose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [contains, setContains] = useState('');
  const settled = useDebounced(contains, 200);
  const params = facetParams(shape, field.id, settled, LIMIT);
  const facets = useAsync(JSON.stringify(params), (signal) => call('deskstore_facets', params, { signal }));
  const search = useRef<HTMLInputElement>(null);
  useEffect(() => {
    search.current?.focus();
  }, [field.id]);
  const label = columnLabel(field);
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const style = numberStyleOf(
    field,
    (facets.data?.values ?? []).map((f) => f.value),
  );
  const isSelected = (choice: FilterChoice) => selected.some((s) => sameChoice(s, choice));
  const toggle = (choice: FilterChoice) => onChange(toggleChoice(selected, choice));
  // chosen values first (in the order chosen), then the rest by count as the server sends them;
  // NULL is offered as "(empty)" above them
  // scalar values can be chosen (NULL is "(empty)"; array and JSON values cannot be filter values)
  const all = (facets.data?.values ?? []).filter((f): f is FacetValue & { value: FilterChoice } => typeof f.value !== 'object');
  const values = [...all.filter((f) => isSelected(f.value)), ...all.filter((f) => !isSelected(f.value))];
  const data = facets.data;
  // every value is listed (or NULL is among them): the blank counts are known
  const nullCount = data?.values.find((f) => f.value === null)?.count ?? (data && data.distinct <= data.values.length ? 0 : null);
  const blanks = [
    { choice: EMPTY, label: t('filter.empty'), count: nullCount, testId: 'filter-empty' },
    {
      choice: NOT_EMPTY,
      label: t('filter.notEmptyChoice'),
      count: data && nullCount !== null ? data.rows - nullCount : null,
      testId: 'filter-not-empty',
    },
  ];
  return (
    <SidePanel title={t('filter.title', { column: label })} testId="filter-panel" className="filter-panel" onClose={onClose}>
      <label htmlFor={`${id}-contains`}>{t('filter.searchValues')}</label>
      <input
        ref={search}
        id={`${id}-contains`}
        type="search"
        value={contains}
        onChange={(e) => setContains(e.target.value)}
        data-testid="facet-search"
      />
      <p className="muted small" role="status" aria-live="polite">
        {facets.data
          ? t('filter.distinct', { count: facets.data.distinct, n: formatCount(facets.data.distinct, locale) })
          : t('common.loading')}
      </p>
      {facets.error !== undefined && <ErrorNotice error={facets.error} onRetry={facets.reload} />}
      <fieldset className="facet-list" aria-busy={facets.loading}>
        <legend className="visually-hidden">{t('filter.values', { column: label })}</legend>
        {blanks.map(({ choice, label: text, count, testId }) => (
          <div key={testId} className="facet facet-blank">
            <input
              type="checkbox"
              id={`${id}-${testId}`}
              checked={isSelected(choice)}
              onChange={() => toggle(choice)}
              data-testid={testId}
            />
            <label htmlFor={`${id}-${testId}`} title={t('filter.emptyNote')}>
              <span className="facet-value">{text}</span>
              <span className="facet-count">{count === null ? '' : formatCount(count, locale)}</span>
            </label>
          </div>
        ))}
        {values.map((facet, i) => {
          const checkId = `${id}-v${i}`;
          const text = facet.value === '' ? t('filter.emptyText') : formatCell(facet.value, field.type, locale, labels, style);
          return (
            <div key={`${String(facet.value)}-${i}`} className="facet">
              <input type="checkbox" id={checkId} checked={isSelected(facet.value)} onChange={() => toggle(facet.value)} />
              <label htmlFor={checkId}>
                <span className="facet-value">{text}</span>
                <span className="facet-count">{formatCount(facet.count, locale)}</span>
              </label>
            </div>
          );
        })}
        {facets.data && values.length === 0 && <p className="muted">{t('filter.noValues')}</p>}
        {facets.data && facets.data.distinct > facets.data.values.length && (
          <p className="muted small">
            {t('filter.more', { shown: formatCount(values.length, locale), total: formatCount(facets.data.distinct, locale) })}
          </p>
        )}
      </fieldset>
      {selected.length > 0 && (
        <div className="selected-values">
          <p className="small">{t('filter.selected', { count: selected.length })}</p>
          <button type="button" className="button button-small" onClick={() => onChange([])}>
            {t('filter.clear')}
          </button>
        </div>
      )}
    </SidePanel>
  );
}
