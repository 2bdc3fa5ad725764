import { useTranslation } from 'react-i18next';
import type { GroupByResult } from '../../../../shared/wire/group-by';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { formatStatistic } from '../profile/profile-format';
import type { ChartState } from './use-chart';

/** The chart's figures as a table (its accessible form; the first 500 groups). */
export function ChartTable({
  chart,
  data,
  keyColumns,
}: {
  readonly chart: ChartState;
  readonly data: GroupByResult;
  readonly keyColumns: readonly string[];
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className="table-wrap chart-table-wrap">
      <table className="chart-table" data-testid="chart-table">
        <caption className="visually-hidden">{chart.metricLabel}</caption>
        <thead>
          <tr>
            {keyColumns.map((k) => (
              <th key={k} scope="col">
                {k}
              </th>
            ))}
            <th scope="col" className="num">
              {t('chart.metric.count')}
            </th>
            {data.metric !== 'count' && (
              <th scope="col" className="num">
                {chart.metricLabel}
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {data.groups.slice(0, 500).map((g, i) => (
            <tr key={i}>
              {g.keys.map((k, j) => (
                <td key={j}>{chart.keyText(k, data.group_by[j])}</td>
              ))}
              <td className="num">{formatCount(g.count, locale)}</td>
              {data.metric !== 'count' && <td className="num">{formatStatistic(g.value, chart.typeOf(data.value_field), locale)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
