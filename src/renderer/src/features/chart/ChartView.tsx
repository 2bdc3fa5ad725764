import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import type { SearchShape } from '../table/view-state';
import { formatStatistic } from '../profile/profile-format';
import { ChartControls } from './ChartControls';
import { ChartSql } from './ChartSql';
import { ChartTable } from './ChartTable';
import { chartKind } from './chart-spec';
import { groupsCsv } from './groups-csv';
import { download, pngBlob, svgText } from './render-plot';
import { useChart } from './use-chart';
import { useChartPlot } from './use-chart-plot';

interface Props {
  readonly shape: SearchShape;
  readonly fields: readonly DatastoreField[];
  readonly title: string;
}

/**
 * Group-by of the rows the table shows (search, filters, conditions), as a chart and a table,
 * with the SQL that computes the same on a CKAN portal; chart as PNG or SVG, data as CSV.
 */
export function ChartView({ shape, fields, title }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const chart = useChart(shape, fields);
  const { result, data, metricLabel, labelOf } = chart;
  const chartRef = useRef<HTMLDivElement>(null);
  const svg = useChartPlot(chartRef, data, {
    keyLabel: (k) => chart.keyText(k, data?.group_by[0]),
    number: (n) => formatStatistic(n, 'numeric', locale),
    metricLabel,
    groupLabel: labelOf(data?.group_by[0]),
    seriesLabel: labelOf(data?.group_by[1]),
    other: t('chart.other'),
    locale,
  });

  const fileBase = `${title || 'chart'}-${chart.group}`.replace(/[\\/:*?"<>|]+/g, '_').slice(0, 80);
  const keyColumns = data ? data.group_by.map((g) => labelOf(g)) : [];
  return (
    <section className="chart-view" aria-labelledby={`${id}-title`} data-testid="chart-view">
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('views.chart')}
      </h2>
      <ChartControls chart={chart} />
      {result.error !== undefined && <ErrorNotice error={result.error} onRetry={result.reload} />}
      {!chart.ready && <p className="muted">{t('chart.noNumbers')}</p>}
      <p className="muted small" role="status" aria-live="polite">
        {data
          ? t('chart.summary', {
              count: data.total_groups,
              groups: formatCount(data.total_groups, locale),
              rows: formatCount(data.rows, locale),
            })
          : result.error !== undefined
            ? ''
            : t('common.loading')}
        {data && chartKind(data) === 'bar' && data.groups.length > 30 ? ` ${t('chart.firstBars', { n: 30 })}` : ''}
      </p>
      <div className="chart-layout">
        <figure className="chart-figure">
          <div ref={chartRef} className="chart-host" data-testid="chart" aria-busy={result.loading} />
          <figcaption className="visually-hidden">{metricLabel}</figcaption>
          {svg && data && (
            <div className="button-row">
              <button
                type="button"
                className="button button-small"
                data-testid="chart-png"
                onClick={() => void pngBlob(svg).then((blob) => download(blob, `${fileBase}.png`))}
              >
                {t('chart.png')}
              </button>
              <button
                type="button"
                className="button button-small"
                data-testid="chart-svg"
                onClick={() => download(new Blob([svgText(svg)], { type: 'image/svg+xml' }), `${fileBase}.svg`)}
              >
                {t('chart.svg')}
              </button>
              <button
                type="button"
                className="button button-small"
                data-testid="chart-csv"
                onClick={() => download(new Blob([groupsCsv(data, keyColumns, metricLabel)], { type: 'text/csv' }), `${fileBase}.csv`)}
              >
                {t('chart.csv')}
              </button>
            </div>
          )}
        </figure>
        {data && (
          <div className="chart-side">
            <ChartTable chart={chart} data={data} keyColumns={keyColumns} />
            <ChartSql data={data} resourceId={shape.resourceId} />
          </div>
        )}
      </div>
    </section>
  );
}
