import { useId, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { SyncSchedule } from '../../../../shared/wire/catalogue';
import { call } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';

/** The periods offered, in hours (0: never); a period set through the API is offered too. */
const PERIODS = [0, 1, 6, 12, 24, 168];

interface Props {
  readonly packageId: string;
  readonly schedule: SyncSchedule | undefined;
  readonly canWrite: boolean;
  readonly onChanged: () => void;
}

/**
 * On a mirrored dataset: sync it on its own every N hours while Deskstore runs
 * (deskstore_sync_schedule); what a scheduled sync changed is told by SyncNotices.
 */
export function SyncScheduleControl({ packageId, schedule, canWrite, onChanged }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  const current = schedule?.every_hours ?? 0;
  const periods = PERIODS.includes(current) ? PERIODS : [...PERIODS, current].sort((a, b) => a - b);
  const choose = (hours: number) => {
    setError(null);
    setSaving(true);
    call('deskstore_sync_schedule', { id: packageId, every_hours: hours })
      .then(onChanged, setError)
      .finally(() => setSaving(false));
  };
  return (
    <div className="sync-schedule" data-testid="sync-schedule">
      <label htmlFor={`${id}-every`}>{t('changes.schedule.label')}</label>{' '}
      <select
        id={`${id}-every`}
        value={current}
        disabled={!canWrite || saving}
        title={canWrite ? undefined : t('token.needed')}
        onChange={(e) => choose(Number(e.target.value))}
        aria-describedby={`${id}-hint`}
        data-testid="sync-every"
      >
        {periods.map((hours) => (
          <option key={hours} value={hours}>
            {periodLabel(t, hours)}
          </option>
        ))}
      </select>{' '}
      <span id={`${id}-hint`} className="muted small">
        {t('changes.schedule.hint')}
      </span>
      {error !== null && <ErrorNotice error={error} />}
    </div>
  );
}

function periodLabel(t: TFunction, hours: number): string {
  if (hours === 0) return t('changes.schedule.off');
  if (hours === 24) return t('changes.schedule.daily');
  if (hours === 168) return t('changes.schedule.weekly');
  return t('changes.schedule.hours', { count: hours });
}
