import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { DatastoreField } from '../../../../shared/wire/search';
import type { FacetValue } from '../../../../shared/wire/facets';
import { ErrorNotice } from '../../components/ErrorNotice';
import { NumberProblemNote } from '../../components/NumberInput';
import { formatCell, isNumericType } from '../../format/cell';
import { parseLocaleNumber } from '../../format/parse-number';
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

/** A choice as text that tells `1` from `"1"` and from "(empty)". */
const choiceKey = (choice: FilterChoice): string => JSON.stringify(choice);

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
  // a number column's values are found by the number typed as the UI's language writes it
  const numeric = isNumericType(field.type);
  const reading = numeric ? parseLocaleNumber(contains, locale) : null;
  const wanted = reading === null ? contains : reading.kind === 'number' ? reading.value : '';
  const settled = useDebounced(wanted, 200);
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
  // Choosing a value reorders the list (chosen values first) and re-renders the table page: the
  // checkbox clicked may be moved or replaced. Focus is put back on it, so Escape still closes
  // the panel and the keyboard goes on from there.
  const list = useRef<HTMLFieldSetElement>(null);
  const toggled = useRef<string | null>(null);
  useEffect(() => {
    const key = toggled.current;
    const active = document.activeElement;
    if (key === null || (active !== null && active !== document.body && active.isConnected)) return;
    toggled.current = null;
    list.current?.querySelector<HTMLInputElement>(`input[data-choice="${CSS.escape(key)}"]`)?.focus();
  }, [selected]);
  const toggle = (choice: FilterChoice) => {
    toggled.current = choiceKey(choice);
    onChange(toggleChoice(selected, choice));
  };
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
        aria-invalid={reading?.kind === 'invalid' ? true : undefined}
        aria-describedby={reading?.kind === 'invalid' ? `${id}-problem` : undefined}
        data-testid="facet-search"
      />
      {reading?.kind === 'invalid' && <NumberProblemNote id={`${id}-problem`} reading={reading} text={contains} />}
      <p className="muted small" role="status" aria-live="polite">
        {facets.data
          ? t('filter.distinct', { count: facets.data.distinct, n: formatCount(facets.data.distinct, locale) })
          : t('common.loading')}
      </p>
      {facets.error !== undefined && <ErrorNotice error={facets.error} onRetry={facets.reload} />}
      <fieldset ref={list} className="facet-list" aria-busy={facets.loading}>
        <legend className="visually-hidden">{t('filter.values', { column: label })}</legend>
        {blanks.map(({ choice, label: text, count, testId }) => (
          <div key={testId} className="facet facet-blank">
            <input
              type="checkbox"
              id={`${id}-${testId}`}
              data-choice={choiceKey(choice)}
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
        {values.map((facet) => {
          // named by value, not position: the chosen ones move to the top
          const key = choiceKey(facet.value);
          const checkId = `${id}-v${all.indexOf(facet)}`;
          const text = facet.value === '' ? t('filter.emptyText') : formatCell(facet.value, field.type, locale, labels, style);
          return (
            <div key={key} className="facet">
              <input
                type="checkbox"
                id={checkId}
                data-choice={key}
                checked={isSelected(facet.value)}
                onChange={() => toggle(facet.value)}
              />
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
