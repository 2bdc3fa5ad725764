import { useTranslation } from 'react-i18next';
import type { JobPhase, JobState } from '../../../../shared/wire/import';

const STEPS: readonly JobPhase[] = ['reading', 'typing', 'indexing', 'writing', 'storing'];

/** The import's steps, done ones ticked and the current one marked. */
export function PhaseSteps({ phase, status }: { readonly phase: JobPhase; readonly status: JobState }) {
  const { t } = useTranslation();
  const current = phase === 'downloading' || phase === 'queued' ? 0 : STEPS.indexOf(phase);
  const complete = status === 'complete';
  return (
    <ol className="phases" aria-label={t('import.progress.steps')}>
      {STEPS.map((step, i) => {
        const done = complete || (current >= 0 && i < current) || phase === 'done';
        const active = !done && i === current && status === 'running';
        return (
          <li key={step} className={done ? 'step done' : active ? 'step active' : 'step'} aria-current={active ? 'step' : undefined}>
            <span className="step-mark" aria-hidden="true">{done ? '✓' : i + 1}</span>
            <span>{t(`import.phase.${step}`)}</span>
            {done && <span className="visually-hidden"> {t('import.progress.stepDone')}</span>}
          </li>
        );
      })}
    </ol>
  );
}
