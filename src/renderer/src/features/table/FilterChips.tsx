import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { formatCell } from '../../format/cell';
import { numberStyleOf } from '../../format/number-style';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from './columns';
import { isEmptyChoice, type FilterChoice } from './filter-choice';
import type { ViewState } from './view-state';

interface Props {
  readonly view: ViewState;
  readonly fields: readonly DatastoreField[];
  readonly onRemove: (field: string) => void;
  readonly onEdit: (field: string) => void;
  readonly onClearAll: () => void;
}

/** The active conditions as removable chips. */
export function FilterChips({ view, fields, onRemove, onEdit, onClearAll }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const entries = Object.entries(view.filters).filter(([, values]) => values.length > 0);
  if (entries.length === 0 && !view.q) return null;
  const fieldOf = (id: string) => fields.find((f) => f.id === id);
  const show = (field: DatastoreField | undefined, choice: FilterChoice) =>
    isEmptyChoice(choice)
      ? t(choice.deskstore_empty ? 'filter.empty' : 'filter.notEmptyChoice')
      : formatCell(choice, field?.type ?? 'text', locale, labels, field ? numberStyleOf(field, []) : undefined);
  return (
    <ul className="chips" aria-label={t('filter.active')} data-testid="filter-chips">
      {entries.map(([fieldId, values]) => {
        const field = fieldOf(fieldId);
        const label = field ? columnLabel(field) : fieldId;
        const text = values.map((v) => show(field, v)).join(', ');
        return (
          <li key={fieldId} className="chip">
            <button type="button" className="chip-main" onClick={() => onEdit(fieldId)}>
              <span className="chip-field">{label}:</span> {text}
            </button>
            <button
              type="button"
              className="chip-remove"
              aria-label={t('filter.remove', { column: label })}
              onClick={() => onRemove(fieldId)}
            >
              ×
            </button>
          </li>
        );
      })}
      {(entries.length > 1 || (entries.length > 0 && view.q)) && (
        <li>
          <button type="button" className="link-button" onClick={onClearAll}>
            {t('filter.clearAll')}
          </button>
        </li>
      )}
    </ul>
  );
}
