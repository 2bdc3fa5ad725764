import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { SidePanel } from '../../components/SidePanel';
import { NumberInput } from '../../components/NumberInput';
import { isDateType, isIntegerType, isNumericType } from '../../format/cell';
import { useDebounced } from '../../hooks/use-debounced';
import { columnLabel } from './columns';
import { DESKSTORE_ONLY, isComplete, needsValue, operatorsFor, type Condition, type ConditionOp } from './conditions';

interface Props {
  readonly fields: readonly DatastoreField[];
  readonly conditions: readonly Condition[];
  readonly onChange: (conditions: Condition[]) => void;
  readonly onClose: () => void;
}

/** The input that fits a column: numbers in the UI's language, the locale's date picker, yes/no, or text. */
function ValueInput({
  field,
  value,
  label,
  onChange,
  testId,
}: {
  readonly field: DatastoreField;
  readonly value: string;
  readonly label: string;
  readonly onChange: (v: string) => void;
  readonly testId: string;
}) {
  const { t } = useTranslation();
  if (field.type === 'bool') {
    return (
      <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
        <option value="">—</option>
        <option value="true">{t('common.yes')}</option>
        <option value="false">{t('common.no')}</option>
      </select>
    );
  }
  // numbers as the UI's language writes them (`1,9` in Italian), whatever the browser's locale
  if (isNumericType(field.type)) {
    return (
      <NumberInput
        value={value}
        integer={isIntegerType(field.type)}
        ariaLabel={label}
        testId={testId}
        onChange={(next) => onChange(next ?? '')}
      />
    );
  }
  const type = field.type === 'date' ? 'date' : isDateType(field.type) ? 'datetime-local' : 'text';
  return (
    <input
      type={type}
      step={type === 'datetime-local' ? 1 : undefined}
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      data-testid={testId}
    />
  );
}

/**
 * Conditions on columns, beside the value filter: each one a column, an operator and its
 * value(s). Edits apply as you type (debounced); a condition marked "Deskstore only" uses an
 * operator a CKAN portal would refuse, so the API panel's call works here only.
 */
export function ConditionsPanel({ fields, conditions, onChange, onClose }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const columns = fields.filter((f) => f.id !== '_id');
  const [draft, setDraft] = useState<Condition[]>(() => [...conditions]);
  const settled = useDebounced(draft, 400);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const applied = useRef(JSON.stringify(conditions));
  useEffect(() => {
    const text = JSON.stringify(settled);
    if (text === applied.current) return;
    applied.current = text;
    onChangeRef.current(settled);
  }, [settled]);

  const update = (index: number, patch: Partial<Condition>) =>
    setDraft((list) =>
      list.map((c, i) => {
        if (i !== index) return c;
        const next = { ...c, ...patch };
        // a new column keeps the operator only if that column offers it
        if (patch.field !== undefined) {
          const field = columns.find((f) => f.id === patch.field);
          if (field && !operatorsFor(field.type).includes(next.op)) return { ...next, op: 'eq', value: '', value2: '' };
        }
        return next;
      }),
    );
  const add = () => {
    const first = columns[0];
    if (first) setDraft((list) => [...list, { field: first.id, op: 'eq', value: '', value2: '' }]);
  };
  const anyDeskstoreOnly = draft.some((c) => DESKSTORE_ONLY.has(c.op));

  return (
    <SidePanel title={t('conditions.title')} testId="conditions-panel" className="conditions-panel" onClose={onClose}>
      <p className="muted small">{t('conditions.intro')}</p>
      <ol className="condition-list">
        {draft.map((c, index) => {
          const field = columns.find((f) => f.id === c.field) ?? columns[0];
          if (!field) return null;
          const label = columnLabel(field);
          const rowId = `${id}-c${index}`;
          return (
            <li key={index} className={`condition${isComplete(c) ? '' : ' incomplete'}`} data-testid="condition">
              <fieldset>
                <legend className="visually-hidden">{t('conditions.number', { n: index + 1 })}</legend>
                <div className="condition-line">
                  <label className="visually-hidden" htmlFor={`${rowId}-field`}>
                    {t('conditions.column')}
                  </label>
                  <select
                    id={`${rowId}-field`}
                    value={field.id}
                    onChange={(e) => update(index, { field: e.target.value })}
                    data-testid="condition-field"
                  >
                    {columns.map((f) => (
                      <option key={f.id} value={f.id}>
                        {columnLabel(f)}
                      </option>
                    ))}
                  </select>
                  <label className="visually-hidden" htmlFor={`${rowId}-op`}>
                    {t('conditions.operator')}
                  </label>
                  <select
                    id={`${rowId}-op`}
                    value={c.op}
                    onChange={(e) => update(index, { op: e.target.value as ConditionOp })}
                    data-testid="condition-op"
                  >
                    {operatorsFor(field.type).map((op) => (
                      <option key={op} value={op}>
                        {t(`conditions.op.${op}`)}
                      </option>
                    ))}
                  </select>
                  <button
                    type="button"
                    className="icon-button"
                    aria-label={t('conditions.remove', { column: label })}
                    onClick={() => setDraft((list) => list.filter((_, i) => i !== index))}
                  >
                    ×
                  </button>
                </div>
                {needsValue(c.op) && (
                  <div className="condition-line">
                    <ValueInput
                      field={field}
                      value={c.value}
                      label={c.op === 'between' ? t('conditions.from') : t('conditions.value')}
                      onChange={(value) => update(index, { value })}
                      testId="condition-value"
                    />
                    {c.op === 'between' && (
                      <ValueInput
                        field={field}
                        value={c.value2}
                        label={t('conditions.to')}
                        onChange={(value2) => update(index, { value2 })}
                        testId="condition-value2"
                      />
                    )}
                  </div>
                )}
                {DESKSTORE_ONLY.has(c.op) && (
                  <span className="badge badge-warn" data-testid="deskstore-only">
                    {t('conditions.deskstoreOnly')}
                  </span>
                )}
              </fieldset>
            </li>
          );
        })}
      </ol>
      {draft.length === 0 && <p className="muted">{t('conditions.none')}</p>}
      <div className="button-row">
        <button type="button" className="button" onClick={add} data-testid="add-condition">
          {t('conditions.add')}
        </button>
        {draft.length > 0 && (
          <button type="button" className="button button-small" onClick={() => setDraft([])}>
            {t('conditions.clear')}
          </button>
        )}
      </div>
      {anyDeskstoreOnly && (
        <p className="small notice" role="note">
          {t('conditions.deskstoreOnlyNote')}
        </p>
      )}
    </SidePanel>
  );
}
