import { optional } from '../../shared/optional';
import type { RowSelection } from '../engine/engine-api';
import type { ActionParams } from './action-params';
import { type SchemaErrors, isMissing, toBoolean, toJsonValue, toNaturalNumber } from './validators';

/**
 * The parameters every Deskstore summary action shares with datastore_search (`filters`,
 * a whole-row `q`, the search box's `deskstore_q`, `plain`, `language`), read once, plus
 * bounded counts (`limit`, `top`…).
 */
export function readRowSelection(params: ActionParams, errors: SchemaErrors): RowSelection & { resourceId: string } {
  if (isMissing(params.resource_id)) errors.add('resource_id', 'Missing value');
  const filters = params.filters === undefined ? undefined : errors.take('filters', toJsonValue(params.filters));
  return {
    resourceId: String(params.resource_id),
    ...optional('filters', filters),
    ...(isMissing(params.q) ? {} : { q: String(params.q) }),
    ...(isMissing(params.deskstore_q) ? {} : { deskstoreQ: String(params.deskstore_q) }),
    plain: params.plain === undefined ? true : toBoolean(params.plain),
    ...(isMissing(params.language) ? {} : { language: String(params.language) }),
  };
}

/** A natural number parameter with a default, capped at `max` (an error if it is not a number). */
export function readCount(params: ActionParams, name: string, fallback: number, max: number, errors: SchemaErrors): number {
  if (isMissing(params[name])) return fallback;
  const value = errors.take(name, toNaturalNumber(params[name]));
  return Math.min(value ?? fallback, max);
}
