import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BBox, MapBin, MapPoint, MapPointsResult } from '../../../../shared/wire/map-points';
import type { DatastoreField } from '../../../../shared/wire/search';
import { call } from '../../api/client';
import type { ActionParams } from '../../../../shared/wire/actions';
import { formatCell } from '../../format/cell';
import { useAsync, type AsyncResult } from '../../hooks/use-async';
import { useLocale } from '../../hooks/use-locale';
import { queryParams, type SearchShape } from '../table/view-state';

export interface MapViewState {
  /** Columns that may hold a latitude or a longitude. */
  readonly candidates: readonly DatastoreField[];
  /** The latitude and longitude columns shown: the user's choice, else what the server detected. */
  readonly lat: string;
  readonly lon: string;
  readonly setLat: (id: string) => void;
  readonly setLon: (id: string) => void;
  readonly color: string;
  readonly setColor: (id: string) => void;
  /** The zoomed-into box, or null for all the located rows. */
  readonly bbox: BBox | null;
  readonly resetZoom: () => void;
  readonly result: AsyncResult<MapPointsResult>;
  /** Points as sent, or bins most populous first. */
  readonly items: readonly (MapPoint | MapBin)[];
  readonly colorText: (value: unknown) => string;
  /** A point opens its row; a bin zooms into it (a bin of one row opens it). */
  readonly activate: (item: MapPoint | MapBin) => void;
}

/**
 * What the map asks (coordinate and colour columns, the zoom box) and the server's points or
 * bins for the rows the table shows.
 */
export function useMapView(shape: SearchShape, fields: readonly DatastoreField[], onOpenRow: (rowId: number) => void): MapViewState {
  const { t } = useTranslation();
  const locale = useLocale();
  const [lat, setLatChoice] = useState('');
  const [lon, setLonChoice] = useState('');
  const [color, setColor] = useState('');
  const [bbox, setBbox] = useState<BBox | null>(null);
  const params: ActionParams<'deskstore_map_points'> = {
    resource_id: shape.resourceId,
    ...(lat && lon ? { lat_field: lat, lon_field: lon } : {}),
    ...(color ? { color_field: color } : {}),
    ...(bbox ? { bbox: bbox.join(',') } : {}),
    ...queryParams(shape, { withFields: false, withSort: false }),
  };
  const result = useAsync(JSON.stringify(params), (signal) => call('deskstore_map_points', params, { signal }));
  const data = result.data;
  const labels = { yes: t('common.yes'), no: t('common.no') };
  const colorType = fields.find((f) => f.id === data?.color_field)?.type ?? 'text';
  const colorText = (v: unknown) => (v === null || v === undefined ? t('map.other') : formatCell(v, colorType, locale, labels));
  const activate = (item: MapPoint | MapBin) => {
    if ('id' in item) onOpenRow(item.id);
    else if (item.count === 1) onOpenRow(item.first_id);
    else setBbox(item.bbox);
  };
  // choosing one coordinate keeps the other as detected, so the request names both
  const shownLat = lat || data?.lat_field || '';
  const shownLon = lon || data?.lon_field || '';
  const candidates = fields.filter(
    (f) => f.id !== '_id' && (f.type === 'text' || f.type.startsWith('int') || f.type === 'numeric' || f.type.startsWith('float')),
  );
  const items: (MapPoint | MapBin)[] = data
    ? data.mode === 'points'
      ? [...data.points]
      : [...data.bins].sort((a, b) => b.count - a.count)
    : [];
  return {
    candidates,
    lat: shownLat,
    lon: shownLon,
    setLat: (id) => {
      setLatChoice(id);
      setLonChoice(shownLon);
    },
    setLon: (id) => {
      setLonChoice(id);
      setLatChoice(shownLat);
    },
    color,
    setColor,
    bbox,
    resetZoom: () => setBbox(null),
    result,
    items,
    colorText,
    activate,
  };
}
