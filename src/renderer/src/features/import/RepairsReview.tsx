import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { RepairAction, RepairKind, RepairReport } from '../../../../shared/wire/import';
import { LabelledSelect } from '../../components/LabelledSelect';
import { MessageText } from '../../components/MessageText';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';

interface Props {
  readonly repairs: readonly RepairReport[];
  readonly sampled: boolean;
  readonly busy: boolean;
  readonly onChoose: (kind: RepairKind, action: RepairAction) => void;
}

/**
 * The rows that do not fit the header, per kind of problem: how many (in the part of the file
 * the preview read), where, what the file has and what the import will do, with a choice per
 * kind. Skipping is offered, never preselected: by default every row is kept.
 */
export function RepairsReview({ repairs, sampled, busy, onChoose }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  if (repairs.length === 0) return null;
  return (
    <section className="card repairs" aria-labelledby={`${id}-title`} data-testid="repairs" aria-busy={busy}>
      <h2 id={`${id}-title`}>{t('import.repairs.title')}</h2>
      <p className="muted">{t(sampled ? 'import.repairs.introSampled' : 'import.repairs.intro')}</p>
      {repairs.map((r) => (
        <div key={r.kind} className="repair" data-testid={`repair-${r.kind}`}>
          <p className="repair-summary">
            <MessageText message={r.message} />
          </p>
          <LabelledSelect
            label={t('import.repairs.choice')}
            value={r.action}
            options={r.actions.map((a) => ({ value: a, label: t(`import.repairs.actions.${r.kind}.${a}`) }))}
            onChange={(action) => onChoose(r.kind, action)}
            testId={`repair-choice-${r.kind}`}
          />
          <p className="muted small">
            {t('import.repairs.lines', { count: r.rows, rows: formatCount(r.rows, locale), lines: r.lines.join(', ') })}
          </p>
          <table className="repair-examples">
            <caption className="visually-hidden">{t('import.repairs.examples')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('import.repairs.line')}</th>
                <th scope="col">{t('import.repairs.raw')}</th>
                <th scope="col">{t('import.repairs.outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {r.examples.map((e) => (
                <tr key={e.line}>
                  <td>{formatCount(e.line, locale)}</td>
                  <td>
                    <code className="raw-line">{e.raw}</code>
                  </td>
                  <td>
                    <MessageText message={e.outcome} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}
