import { useTranslation } from 'react-i18next';

export type TableMode = 'table' | 'chart' | 'map';

export function modeFromQuery(query: URLSearchParams): TableMode {
  const mode = query.get('view');
  return mode === 'chart' || mode === 'map' ? mode : 'table';
}

/** Table, chart or map of the same rows: a group of toggle buttons (the URL keeps the choice). */
export function ViewSwitch({ mode, onMode }: { readonly mode: TableMode; readonly onMode: (mode: TableMode) => void }) {
  const { t } = useTranslation();
  return (
    <div className="view-switch" role="group" aria-label={t('views.label')}>
      {(['table', 'chart', 'map'] as const).map((m) => (
        <button key={m} type="button" className="button" aria-pressed={mode === m} onClick={() => onMode(m)} data-testid={`view-${m}`}>
          {t(`views.${m}`)}
        </button>
      ))}
    </div>
  );
}
