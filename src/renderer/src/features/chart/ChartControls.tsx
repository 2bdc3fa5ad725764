import { useTranslation } from 'react-i18next';
import { DATE_BUCKETS, GROUP_BY_METRICS } from '../../../../shared/wire/group-by';
import { LabelledSelect } from '../../components/LabelledSelect';
import { columnLabel } from '../table/columns';
import type { ChartState } from './use-chart';

/** The chart's questions: group by, calendar bucket, then by, metric and its column. */
export function ChartControls({ chart }: { readonly chart: ChartState }) {
  const { t } = useTranslation();
  const columnOptions = (list: ChartState['columns']) => list.map((f) => ({ value: f.id, label: columnLabel(f) }));
  return (
    <div className="chart-controls options">
      <LabelledSelect
        label={t('chart.groupBy')}
        value={chart.group}
        options={columnOptions(chart.columns)}
        onChange={chart.setGroup}
        testId="chart-group"
      />
      {chart.dated && (
        <LabelledSelect
          label={t('chart.bucket')}
          value={chart.bucket}
          options={[
            { value: '' as const, label: t('chart.exact') },
            ...DATE_BUCKETS.map((b) => ({ value: b, label: t(`chart.buckets.${b}`) })),
          ]}
          onChange={chart.setBucket}
          testId="chart-bucket"
        />
      )}
      <LabelledSelect
        label={t('chart.thenBy')}
        value={chart.second}
        options={[{ value: '', label: t('chart.none') }, ...columnOptions(chart.columns.filter((f) => f.id !== chart.group))]}
        onChange={chart.setSecond}
        testId="chart-second"
      />
      <LabelledSelect
        label={t('chart.show')}
        value={chart.metric}
        options={GROUP_BY_METRICS.map((m) => ({ value: m, label: t(`chart.metric.${m}`) }))}
        onChange={chart.setMetric}
        testId="chart-metric"
      />
      {chart.metric !== 'count' && (
        <LabelledSelect
          label={t('chart.of')}
          value={chart.value}
          options={columnOptions(chart.valueFields)}
          onChange={chart.setValue}
          testId="chart-value"
        />
      )}
    </div>
  );
}
