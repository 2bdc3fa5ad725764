import type { BBox, MapPointsResult } from '../../shared/wire/map-points';
import { ValidationError } from '../errors';
import type { ActionDeps } from './action-deps';
import { readCount, readRowSelection } from '../params/row-selection-params';
import type { HandlersFor } from './types';
import type { ActionParams } from '../params/action-params';
import { SchemaErrors, isMissing } from '../params/validators';

/** `bbox` as `[w, s, e, n]` (JSON) or `w,s,e,n`, degrees with west ≤ east and south ≤ north. */
function readBBox(value: unknown, errors: SchemaErrors): BBox | null {
  if (isMissing(value)) return null;
  let parts: unknown = value;
  if (typeof value === 'string') {
    const text = value.trim().replace(/^\[|\]$/g, '');
    parts = text.split(',').map((p) => (p.trim() === '' ? NaN : Number(p)));
  }
  if (Array.isArray(parts) && parts.length === 4 && parts.every((p) => typeof p === 'number' && Number.isFinite(p))) {
    const [w, s, e, n] = parts as number[];
    if (w! <= e! && s! <= n!) return [w!, s!, e!, n!];
  }
  errors.add('bbox', 'bbox must be four numbers: west, south, east, north');
  return null;
}

const field = (params: ActionParams, name: string): string | null => (isMissing(params[name]) ? null : String(params[name]));

/**
 * `deskstore_map_points` (GET-able): positions of the rows `filters` and `q` select, from
 * `lat_field`/`lon_field` or `geometry_field` (detected when not given), as points or bins,
 * coloured by `color_field`; `bbox` zooms, `max_points` (default 3000, ≤ 20000) and `grid`
 * (default 48, ≤ 200) bound the answer.
 */
export function mapPointsAction(deps: ActionDeps): HandlersFor<'deskstore_map_points'> {
  return {
    async deskstore_map_points(params) {
      const errors = new SchemaErrors();
      const selection = readRowSelection(params, errors);
      const bbox = readBBox(params.bbox, errors);
      const maxPoints = readCount(params, 'max_points', 3000, 20000, errors);
      const grid = Math.max(1, readCount(params, 'grid', 48, 200, errors));
      if (errors.any) throw new ValidationError(errors.members);
      const result = await deps.engine.mapPoints({
        ...selection,
        bbox,
        maxPoints,
        grid,
        latField: field(params, 'lat_field'),
        lonField: field(params, 'lon_field'),
        geometryField: field(params, 'geometry_field'),
        colorField: field(params, 'color_field'),
      });
      return result satisfies MapPointsResult;
    },
  };
}
