import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { formatCell } from '../../format/cell';
import { numberStyleOf } from '../../format/number-style';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from './columns';
import { isComplete, needsValue, type Condition } from './conditions';

interface Props {
  readonly conditions: readonly Condition[];
  readonly fields: readonly DatastoreField[];
  readonly onRemove: (index: number) => void;
  readonly onEdit: () => void;
}

/** The active conditions as removable chips, beside the value-filter chips. */
export function ConditionChips({ conditions, fields, onRemove, onEdit }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const active = conditions.map((c, index) => ({ c, index })).filter(({ c }) => isComplete(c));
  if (!active.length) return null;
  return (
    <ul className="chips" aria-label={t('conditions.title')} data-testid="condition-chips">
      {active.map(({ c, index }) => {
        const field = fields.find((f) => f.id === c.field);
        const column = field ? columnLabel(field) : c.field;
        const show = (v: string) => formatCell(v, field?.type ?? 'text', locale, labels, field ? numberStyleOf(field, [v]) : undefined);
        const value = !needsValue(c.op) ? '' : c.op === 'between' ? `${show(c.value)} – ${show(c.value2)}` : show(c.value);
        return (
          <li key={index} className="chip chip-condition">
            <button type="button" className="chip-main" onClick={onEdit}>
              {t('conditions.chip', { column, op: t(`conditions.op.${c.op}`), value })}
            </button>
            <button type="button" className="chip-remove" aria-label={t('conditions.remove', { column })} onClick={() => onRemove(index)}>
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
