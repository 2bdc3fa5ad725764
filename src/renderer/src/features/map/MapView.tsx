import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BBox, MapBin, MapPoint, MapPointsResult } from '../../../../shared/wire/map-points';
import { api } from '../../api/client';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { formatCell } from '../../format/cell';
import { formatCount } from '../../format/number';
import { useAsync } from '../../hooks/use-async';
import { useLocale } from '../../hooks/use-locale';
import { renderPlot } from '../chart/render-plot';
import { columnLabel } from '../table/columns';
import { queryPairs, type SearchShape } from '../table/view-state';
import { loadBasemap } from './basemap';
import { mapMarks } from './map-marks';

interface Props {
  readonly shape: SearchShape;
  readonly fields: readonly DatastoreField[];
  readonly onOpenRow: (rowId: number) => void;
}

const LIST_LIMIT = 50;

/**
 * The rows the table shows, on a map drawn offline (country outlines shipped with the app):
 * points when there are few, bins with counts when there are many; a click opens a point's
 * row or zooms into a bin. Below the map the same points or bins as a list of buttons, for
 * the keyboard and screen readers.
 */
export function MapView({ shape, fields, onOpenRow }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = useId();
  const [lat, setLat] = useState('');
  const [lon, setLon] = useState('');
  const [color, setColor] = useState('');
  const [bbox, setBbox] = useState<BBox | null>(null);
  const pairs: [string, string][] = [
    ['resource_id', shape.resourceId],
    ...(lat && lon
      ? ([
          ['lat_field', lat],
          ['lon_field', lon],
        ] as [string, string][])
      : []),
    ...(color ? [['color_field', color] as [string, string]] : []),
    ...(bbox ? [['bbox', bbox.join(',')] as [string, string]] : []),
    ...queryPairs(shape, { withFields: false, withSort: false }),
  ];
  const result = useAsync(JSON.stringify(pairs), (signal) => api.mapPoints(pairs, { signal }));
  const data = result.data;
  const hostRef = useRef<HTMLDivElement>(null);
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const colorType = fields.find((f) => f.id === data?.color_field)?.type ?? 'text';
  const colorText = (v: unknown) => (v === null || v === undefined ? t('map.other') : formatCell(v, colorType, locale, labels));
  const activate = (item: MapPoint | MapBin) => {
    if ('id' in item) onOpenRow(item.id);
    else if (item.count === 1) onOpenRow(item.first_id);
    else setBbox(item.bbox);
  };
  const activateRef = useRef(activate);
  const drawRef = useRef<(host: HTMLDivElement, answer: MapPointsResult) => Promise<void>>(async () => undefined);
  useEffect(() => {
    activateRef.current = activate;
    drawRef.current = async (host, answer) => {
      const [Plot, basemap] = await Promise.all([import('@observablehq/plot'), loadBasemap()]);
      const width = Math.max(300, host.clientWidth - 4);
      const node = await renderPlot(
        mapMarks(Plot, answer, basemap, {
          width,
          colorText,
          count: (n) => formatCount(n, locale),
          label: t('map.label', { count: answer.located, n: formatCount(answer.located, locale) }),
          colorLabel: fields.find((f) => f.id === answer.color_field)?.id ?? '',
        }),
      );
      node.addEventListener('click', () => {
        const picked = (node as unknown as { value?: MapPoint | MapBin | null }).value;
        if (picked) activateRef.current(picked);
      });
      host.replaceChildren(node);
    };
  });
  useEffect(() => {
    const host = hostRef.current;
    if (!host || !data) return;
    if (!data.extent) {
      host.replaceChildren();
      return;
    }
    void drawRef.current(host, data);
  }, [data, locale]);

  const candidates = fields.filter(
    (f) => f.id !== '_id' && (f.type === 'text' || f.type.startsWith('int') || f.type === 'numeric' || f.type.startsWith('float')),
  );
  const items: (MapPoint | MapBin)[] = data
    ? data.mode === 'points'
      ? [...data.points]
      : [...data.bins].sort((a, b) => b.count - a.count)
    : [];
  return (
    <section className="map-view" aria-labelledby={`${id}-title`} data-testid="map-view">
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('views.map')}
      </h2>
      <div className="options map-controls">
        <div className="option">
          <label htmlFor={`${id}-lat`}>{t('map.lat')}</label>
          <select
            id={`${id}-lat`}
            value={lat || data?.lat_field || ''}
            onChange={(e) => {
              setLat(e.target.value);
              setLon(lon || data?.lon_field || '');
            }}
            data-testid="map-lat"
          >
            <option value="">—</option>
            {candidates.map((f) => (
              <option key={f.id} value={f.id}>
                {columnLabel(f)}
              </option>
            ))}
          </select>
        </div>
        <div className="option">
          <label htmlFor={`${id}-lon`}>{t('map.lon')}</label>
          <select
            id={`${id}-lon`}
            value={lon || data?.lon_field || ''}
            onChange={(e) => {
              setLon(e.target.value);
              setLat(lat || data?.lat_field || '');
            }}
            data-testid="map-lon"
          >
            <option value="">—</option>
            {candidates.map((f) => (
              <option key={f.id} value={f.id}>
                {columnLabel(f)}
              </option>
            ))}
          </select>
        </div>
        <div className="option">
          <label htmlFor={`${id}-color`}>{t('map.color')}</label>
          <select id={`${id}-color`} value={color} onChange={(e) => setColor(e.target.value)} data-testid="map-color">
            <option value="">{t('chart.none')}</option>
            {fields
              .filter((f) => f.id !== '_id')
              .map((f) => (
                <option key={f.id} value={f.id}>
                  {columnLabel(f)}
                </option>
              ))}
          </select>
        </div>
        {bbox && (
          <button type="button" className="button" onClick={() => setBbox(null)} data-testid="map-reset">
            {t('map.reset')}
          </button>
        )}
      </div>
      {result.error !== undefined && <ErrorNotice error={result.error} onRetry={result.reload} />}
      <p className="muted small" role="status" aria-live="polite" data-testid="map-status">
        {!data
          ? t('common.loading')
          : !data.lat_field && !data.geometry_field
            ? t('map.noCoordinates')
            : t(data.mode === 'points' ? 'map.points' : 'map.bins', {
                count: data.located,
                n: formatCount(data.located, locale),
                rows: formatCount(data.rows, locale),
                bins: formatCount(data.bins.length, locale),
              })}
      </p>
      <div ref={hostRef} className="map-host" data-testid="map" aria-busy={result.loading} />
      {items.length > 0 && (
        <details className="map-list">
          <summary>
            {t(data?.mode === 'points' ? 'map.listPoints' : 'map.listBins', { n: formatCount(Math.min(items.length, LIST_LIMIT), locale) })}
          </summary>
          <ul data-testid="map-list">
            {items.slice(0, LIST_LIMIT).map((item) => (
              <li key={'id' in item ? item.id : item.bbox.join()}>
                <button type="button" className="link-button" onClick={() => activate(item)}>
                  {'id' in item
                    ? t('map.openRow', {
                        id: formatCount(item.id, locale),
                        lat: item.lat,
                        lon: item.lon,
                        color: data?.color_field ? colorText(item.color) : '',
                      })
                    : t('map.zoomBin', {
                        count: item.count,
                        n: formatCount(item.count, locale),
                        lat: item.lat.toFixed(3),
                        lon: item.lon.toFixed(3),
                      })}
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
