import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatastoreField } from '../../../../shared/wire/search';
import { ErrorNotice } from '../../components/ErrorNotice';
import { LabelledSelect } from '../../components/LabelledSelect';
import { formatCount } from '../../format/number';
import { useLocale } from '../../hooks/use-locale';
import { columnLabel } from '../table/columns';
import type { SearchShape } from '../table/view-state';
import { useMapPlot } from './use-map-plot';
import { useMapView } from './use-map-view';

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
  const map = useMapView(shape, fields, onOpenRow);
  const data = map.result.data;
  const hostRef = useRef<HTMLDivElement>(null);
  useMapPlot(hostRef, data, fields, map.colorText, map.activate);
  const coordinateOptions = [{ value: '', label: '—' }, ...map.candidates.map((f) => ({ value: f.id, label: columnLabel(f) }))];
  return (
    <section className="map-view" aria-labelledby={`${id}-title`} data-testid="map-view">
      <h2 id={`${id}-title`} className="visually-hidden">
        {t('views.map')}
      </h2>
      <div className="options map-controls">
        <LabelledSelect label={t('map.lat')} value={map.lat} options={coordinateOptions} onChange={map.setLat} testId="map-lat" />
        <LabelledSelect label={t('map.lon')} value={map.lon} options={coordinateOptions} onChange={map.setLon} testId="map-lon" />
        <LabelledSelect
          label={t('map.color')}
          value={map.color}
          options={[
            { value: '', label: t('chart.none') },
            ...fields.filter((f) => f.id !== '_id').map((f) => ({ value: f.id, label: columnLabel(f) })),
          ]}
          onChange={map.setColor}
          testId="map-color"
        />
        {map.bbox && (
          <button type="button" className="button" onClick={map.resetZoom} data-testid="map-reset">
            {t('map.reset')}
          </button>
        )}
      </div>
      {map.result.error !== undefined && <ErrorNotice error={map.result.error} onRetry={map.result.reload} />}
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
      <div ref={hostRef} className="map-host" data-testid="map" aria-busy={map.result.loading} />
      {map.items.length > 0 && (
        <details className="map-list">
          <summary>
            {t(data?.mode === 'points' ? 'map.listPoints' : 'map.listBins', {
              n: formatCount(Math.min(map.items.length, LIST_LIMIT), locale),
            })}
          </summary>
          <ul data-testid="map-list">
            {map.items.slice(0, LIST_LIMIT).map((item) => (
              <li key={'id' in item ? item.id : item.bbox.join()}>
                <button type="button" className="link-button" onClick={() => map.activate(item)}>
                  {'id' in item
                    ? t('map.openRow', {
                        id: formatCount(item.id, locale),
                        lat: item.lat,
                        lon: item.lon,
                        color: data?.color_field ? map.colorText(item.color) : '',
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
