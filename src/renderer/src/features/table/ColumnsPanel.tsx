import { NumberInput } from '../../components/NumberInput';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { typeKey } from '../import/type-names';
import { columnLabel } from './columns';
import { SidePanel } from '../../components/SidePanel';

interface Props {
  readonly fields: readonly DatastoreField[];
  readonly hidden: readonly string[];
  readonly onChange: (hidden: string[]) => void;
  readonly onClose: () => void;
  /** Columns kept in view when scrolling sideways, remembered per resource. */
  readonly frozen?: number;
  readonly onFrozen?: (frozen: number) => void;
  readonly onResetLayout?: () => void;
}

/** Show or hide columns; hidden ones are also left out of the API call and the export. */
export function ColumnsPanel({ fields, hidden, onChange, onClose, frozen = 0, onFrozen, onResetLayout }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const columns = fields.filter((f) => f.id !== '_id');
  const hiddenSet = new Set(hidden);
  const toggle = (fieldId: string) => onChange(hiddenSet.has(fieldId) ? hidden.filter((h) => h !== fieldId) : [...hidden, fieldId]);
  return (
    <SidePanel title={t('columns.title')} testId="columns-panel" onClose={onClose}>
      <p className="muted small">{t('columns.shown', { shown: columns.length - hiddenSet.size, total: columns.length })}</p>
      <div className="button-row">
        <button type="button" className="button button-small" onClick={() => onChange([])}>
          {t('columns.showAll')}
        </button>
        <button type="button" className="button button-small" onClick={() => onChange(columns.map((c) => c.id))}>
          {t('columns.hideAll')}
        </button>
      </div>
      {onFrozen && (
        <div className="option freeze-option">
          <label htmlFor={`${id}-frozen`}>{t('grid.freeze')}</label>
          <NumberInput
            id={`${id}-frozen`}
            integer
            value={String(frozen)}
            testId="freeze-columns"
            onChange={(text) => {
              if (text) onFrozen(Math.max(0, Math.min(5, Math.floor(Number(text)))));
            }}
          />
          <p className="muted small">{t('grid.layoutHelp')}</p>
          {onResetLayout && (
            <button type="button" className="button button-small" onClick={onResetLayout} data-testid="reset-layout">
              {t('grid.resetLayout')}
            </button>
          )}
        </div>
      )}
      <fieldset className="column-list">
        <legend className="visually-hidden">{t('columns.title')}</legend>
        {columns.map((field, i) => (
          <div key={field.id} className="column-choice">
            <input type="checkbox" id={`${id}-c${i}`} checked={!hiddenSet.has(field.id)} onChange={() => toggle(field.id)} />
            <label htmlFor={`${id}-c${i}`}>
              {columnLabel(field)} <span className="type-badge">{t(typeKey(field.type))}</span>
            </label>
          </div>
        ))}
      </fieldset>
    </SidePanel>
  );
}
