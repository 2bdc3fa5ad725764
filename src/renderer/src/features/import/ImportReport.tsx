import { useTranslation } from 'react-i18next';
import type { ImportSource } from '../../../../shared/import-source';
import { delimiterName } from '../../components/delimiter-name';
import { MessageText } from '../../components/MessageText';
import { formatBytes, formatCount } from '../../format/number';
import { formatInstant } from '../../format/date';
import { useLocale } from '../../hooks/use-locale';
import { RenamedColumns } from './RenamedColumns';
import { typeKey } from './type-names';

/**
 * Rows the import repaired or left out, or something it noticed late (the preview read only
 * the start of the file): worth reading before using the table.
 */
export function reportHasNews(source: ImportSource | null | undefined): boolean {
  return Boolean(source && ((source.repairs?.length ?? 0) > 0 || (source.warnings?.length ?? 0) > 0));
}

/** How the file was read: format, encoding, delimiter, lines left out above the header. */
function HowRead({ source }: { readonly source: ImportSource }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const parts = [
    t('import.report.file', { file: source.file, size: formatBytes(source.bytes, locale) }),
    ...(source.sheet ? [t('import.report.sheet', { sheet: source.sheet })] : []),
    ...(source.format === undefined || source.format === 'csv'
      ? [
          source.encoding.toUpperCase(),
          t('import.report.delimiter', { delimiter: delimiterName(source.delimiter, t) }),
          ...(source.skipLines > 0
            ? [t('import.report.skipped', { count: source.skipLines, n: formatCount(source.skipLines, locale) })]
            : []),
        ]
      : []),
  ];
  return <p data-testid="import-report-how">{parts.join(' · ')}</p>;
}

/**
 * What an import read and did, as the resource keeps it (`deskstore.source`): how the file
 * was read, the rows repaired (how many, which lines, what was done), warnings, renamed
 * columns and each column's type with the reason. Shown when an import completes and on the
 * resource page.
 */
export function ImportReport({ source }: { readonly source: ImportSource }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const repairs = source.repairs ?? [];
  const warnings = source.warnings ?? [];
  const columns = source.columns ?? [];
  return (
    <div className="import-report-body">
      <HowRead source={source} />
      {source.rows !== undefined && (
        <p className="muted small">
          {t('import.report.when', {
            date: formatInstant(source.importedAt, locale),
            rows: formatCount(source.rows, locale),
            count: source.rows,
          })}
        </p>
      )}
      {repairs.length > 0 ? (
        <ul className="report-repairs" data-testid="import-report-repairs">
          {repairs.map((r) => (
            <li key={r.kind}>
              <MessageText message={r.message} />{' '}
              <span className="muted">
                {t('import.report.lines', {
                  count: r.lines.length,
                  lines: r.lines.join(', ') + (r.rows > r.lines.length ? ', …' : ''),
                })}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        source.repairs !== undefined && <p className="muted small">{t('import.report.noRepairs')}</p>
      )}
      {warnings.length > 0 && (
        <ul className="report-warnings">
          {warnings.map((w, i) => (
            <MessageText key={i} as="li" message={w} />
          ))}
        </ul>
      )}
      <RenamedColumns renamed={source.renamedColumns ?? []} />
      {columns.length > 0 && (
        <details className="report-columns">
          <summary>{t('import.report.columns', { count: columns.length, n: formatCount(columns.length, locale) })}</summary>
          <table className="plain-table">
            <caption className="visually-hidden">{t('import.report.columnsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('import.report.column')}</th>
                <th scope="col">{t('import.report.type')}</th>
                <th scope="col">{t('import.report.why')}</th>
              </tr>
            </thead>
            <tbody>
              {columns.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    <code>{c.id}</code>
                  </th>
                  <td>{t(typeKey(c.type))}</td>
                  <td>
                    <MessageText message={c.reason} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}

/** The report on the resource page: one line that opens (saying how many rows were repaired). */
export function ImportReportDetails({ source }: { readonly source: ImportSource | null | undefined }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!source) return null;
  const repaired = (source.repairs ?? []).reduce((n, r) => n + r.rows, 0);
  return (
    <details className="import-report small" data-testid="import-report">
      <summary>
        {repaired > 0
          ? t('import.report.summaryRepaired', { count: repaired, n: formatCount(repaired, locale) })
          : t('import.report.summary')}
      </summary>
      <ImportReport source={source} />
    </details>
  );
}
