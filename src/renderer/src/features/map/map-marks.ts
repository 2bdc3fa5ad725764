/** The map as Observable Plot marks: basemap, then points or bins, with a pointer for clicks. */
import type * as PlotModule from '@observablehq/plot';
import type { MapBin, MapColorValue, MapPoint, MapPointsResult } from '../../../../shared/wire/map-points';
import { CHART_COLOR } from '../chart/chart-spec';
import type { Basemap } from './basemap';

const TABLEAU10 = ['#4e79a7', '#f28e2c', '#e15759', '#76b7b2', '#59a14f', '#edc949', '#af7aa1', '#ff9da7', '#9c755f', '#bab0ab'];
const OTHER_GREY = '#8d949c';

export interface MapLabels {
  readonly width: number;
  readonly colorText: (v: MapColorValue) => string;
  readonly count: (n: number) => string;
  readonly label: string;
  readonly colorLabel: string;
}

export function mapMarks(Plot: typeof PlotModule, data: MapPointsResult, basemap: Basemap, labels: MapLabels): PlotModule.PlotOptions {
  const [w, s, e, n] = data.extent!;
  // a little room around the data, and never closer than ~1 km
  const pad = Math.max(0.01, (e - w) * 0.05, (n - s) * 0.05);
  const domain = {
    type: 'MultiPoint' as const,
    coordinates: [
      [w - pad, s - pad],
      [e + pad, n + pad],
    ],
  };
  const height = Math.round(Math.min(560, Math.max(320, labels.width * 0.6)));
  const colored = data.color_field !== null;
  const fill = colored ? (d: MapPoint | MapBin) => (data.color_kind === 'category' ? labels.colorText(d.color) : d.color) : CHART_COLOR;
  const title = (d: MapPoint | MapBin) =>
    ('id' in d ? `#${d.id}` : `${labels.count(d.count)}`) + (colored ? ` · ${labels.colorText(d.color)}` : '');
  const items: (MapPoint | MapBin)[] = data.mode === 'points' ? [...data.points] : [...data.bins];
  const dotOptions =
    data.mode === 'points'
      ? { x: 'lon', y: 'lat', r: items.length > 500 ? 2.5 : 4, fill, stroke: 'white', strokeWidth: 0.5, title }
      : { x: 'lon', y: 'lat', r: 'count', fill, fillOpacity: 0.8, stroke: 'white', strokeWidth: 0.7, title };
  return {
    width: labels.width,
    height,
    ariaLabel: labels.label,
    projection: { type: 'mercator', domain },
    r: data.mode === 'bins' ? { range: [3, 22], type: 'sqrt' } : undefined,
    color: colored
      ? data.color_kind === 'number'
        ? { type: 'linear', scheme: 'viridis', legend: true, label: labels.colorLabel }
        : {
            type: 'categorical',
            legend: true,
            label: labels.colorLabel,
            // the listed values get Tableau's ten colours, everything else one grey
            domain: [...data.color_values.map((v) => labels.colorText(v.value)), labels.colorText(null)],
            range: [...TABLEAU10.slice(0, data.color_values.length), OTHER_GREY],
          }
      : undefined,
    marks: [
      Plot.geo(basemap.countries, { fill: 'var(--map-land)', stroke: 'none' }),
      Plot.geo(basemap.borders, { stroke: 'var(--map-border)', strokeWidth: 0.7 }),
      Plot.dot(items, dotOptions),
      Plot.dot(
        items,
        Plot.pointer({ ...(dotOptions as PlotModule.DotOptions), fill: 'none', stroke: 'var(--focus)', strokeWidth: 3, maxRadius: 30 }),
      ),
      Plot.tip(items, Plot.pointer({ x: 'lon', y: 'lat', title, maxRadius: 30 })),
    ],
  } as PlotModule.PlotOptions;
}
