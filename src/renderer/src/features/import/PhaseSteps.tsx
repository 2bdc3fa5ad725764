import { useTranslation } from 'react-i18next';
import type { JobPhase, JobState } from '../../../../shared/wire/import';

const STEPS: readonly JobPhase[] = ['reading', 'typing', 'indexing', 'writing', 'storing'];

const stepIndex = (phase: JobPhase): number => (phase === 'downloading' || phase === 'queued' ? 0 : STEPS.indexOf(phase));

interface Props {
  readonly phase: JobPhase;
  readonly status: JobState;
  /** A cancelled or failed import: the step it stopped in (null when not known). Nothing is ticked then. */
  readonly stoppedIn?: JobPhase | null;
}

/** The import's steps: done ones ticked and the current one marked; a stopped import ticks none. */
export function PhaseSteps({ phase, status, stoppedIn = null }: Props) {
  const { t } = useTranslation();
  const stopped = status === 'cancelled' || status === 'error';
  const current = stepIndex(phase);
  const stoppedAt = stoppedIn === null ? -1 : stepIndex(stoppedIn);
  const complete = status === 'complete';
  return (
    <ol className={stopped ? 'phases phases-stopped' : 'phases'} aria-label={t('import.progress.steps')}>
      {STEPS.map((step, i) => {
        const done = !stopped && (complete || (current >= 0 && i < current) || phase === 'done');
        const active = !done && i === current && status === 'running';
        const interrupted = stopped && i === stoppedAt;
        const className = done ? 'step done' : active ? 'step active' : interrupted ? 'step stopped' : 'step';
        return (
          <li key={step} className={className} aria-current={active ? 'step' : undefined}>
            <span className="step-mark" aria-hidden="true">
              {done ? '✓' : interrupted ? '✕' : i + 1}
            </span>
            <span>{t(`import.phase.${step}`)}</span>
            {done && <span className="visually-hidden"> {t('import.progress.stepDone')}</span>}
            {interrupted && (
              <span className="step-note">
                {' '}
                {t(status === 'cancelled' ? 'import.progress.stepCancelled' : 'import.progress.stepFailed')}
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
}
