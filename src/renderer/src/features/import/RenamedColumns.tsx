import { useTranslation } from 'react-i18next';
import type { RenamedColumn } from '../../../../shared/wire/import';

const KNOWN = new Set(['line-break', 'too-long', 'trimmed', 'duplicate', 'empty', 'leading-underscore', 'invalid-character']);

/** Header names the DataStore could not take as they were, and what they became. */
export function RenamedColumns({ renamed }: { readonly renamed: readonly RenamedColumn[] }) {
  const { t } = useTranslation();
  if (renamed.length === 0) return null;
  return (
    <details className="renamed">
      <summary>{t('import.renamed.summary', { count: renamed.length })}</summary>
      <ul>
        {renamed.map((r, i) => (
          <li key={i}>
            <q>{r.from}</q> → <q>{r.to}</q>{' '}
            <span className="muted">({KNOWN.has(r.reason) ? t(`import.renamed.reason.${r.reason}`) : r.reason})</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
