import { useTranslation } from 'react-i18next';
import type { GroupByResult } from '../../../../shared/wire/group-by';
import { CopyButton } from '../../components/CopyButton';
import { hrefFor, sqlPath } from '../../router';

/** The SQL that computes the same table on a CKAN portal, with Copy and "Open in the SQL screen". */
export function ChartSql({ data, resourceId }: { readonly data: GroupByResult; readonly resourceId: string }) {
  const { t } = useTranslation();
  return (
    <div className="chart-sql">
      <div className="heading-row">
        <h3>{t('chart.sqlTitle')}</h3>
        <CopyButton text={data.sql} label={t('chart.copySql')} />
        <a className="button button-small" href={hrefFor(sqlPath(resourceId), new URLSearchParams([['sql', data.sql]]))}>
          {t('chart.openSql')}
        </a>
      </div>
      <pre className="code" data-testid="chart-sql">
        {data.sql}
      </pre>
      {data.sql_without_q && (
        <p className="small notice" role="note">
          {t('chart.sqlWithoutQ')}
        </p>
      )}
      {!data.sql_exact && (
        <p className="small notice" role="note">
          {t('chart.sqlInexact')}
        </p>
      )}
    </div>
  );
}
