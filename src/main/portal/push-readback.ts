import { message } from '../../shared/messages';
import type { EngineApi } from '../engine/engine-api';
import { searchRequest } from '../params/search-params';
import type { PortalClient } from './portal-client';
import { PortalError } from './portal-errors';
import type { RemoteDict } from './remote-dicts';

/**
 * Before a push says `created` or `updated`, a sample of rows is read back from the portal
 * and compared with the local ones (docs/portal.md §Push): the first, the last and a few in
 * between, by position in `_id` order (a portal's `_id`s may have gaps where a batch failed).
 * A portal's `total` alone was trusted: one that counted rows it did not keep as sent would
 * have been reported complete (issue 21).
 */
const SAMPLE_BETWEEN = 6;

/** Positions (0-based, in `_id` order) to read back from a table of `rows` rows. */
export function samplePositions(rows: number, random: () => number = Math.random): number[] {
  if (rows === 0) return [];
  const picks = new Set([0, rows - 1]);
  for (let i = 0; i < SAMPLE_BETWEEN && picks.size < rows; i++) picks.add(Math.floor(random() * rows));
  return [...picks].sort((a, b) => a - b);
}

/** Whether a value read back is the one sent: numbers by value (2.50 and 2.5), JSON by content. */
export function sameValue(local: unknown, remote: unknown): boolean {
  if (local === remote) return true;
  if (local === null || remote === null || local === undefined || remote === undefined) return false;
  const asNumber = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
  if (typeof local === 'number' || typeof remote === 'number') return asNumber(local) === asNumber(remote);
  if (typeof local === 'object' || typeof remote === 'object') return canonical(local) === canonical(remote);
  return String(local) === String(remote);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

async function localRowAt(engine: EngineApi, resourceId: string, fields: readonly string[], position: number): Promise<unknown[] | null> {
  const page = await engine.search(
    searchRequest({
      resource_id: resourceId,
      offset: position,
      limit: 1,
      sort: '_id',
      records_format: 'lists',
      include_total: false,
      fields: fields.join(','),
    }),
  );
  return (JSON.parse(page.records) as unknown[][])[0] ?? null;
}

/** Reads the sample back and fails with `push.readback_mismatch` at the first value that differs. */
export async function checkReadBack(
  engine: EngineApi,
  client: PortalClient,
  localId: string,
  remoteId: string,
  fields: readonly string[],
  rows: number,
  signal?: AbortSignal,
  /** The portal's names of `fields` (cut to 63 bytes there), in the same order. */
  remoteNames: readonly string[] = fields,
): Promise<number> {
  const positions = samplePositions(rows);
  for (const position of positions) {
    const local = await localRowAt(engine, localId, fields, position);
    const page = await client.action<RemoteDict>(
      'datastore_search',
      { resource_id: remoteId, offset: position, limit: 1, sort: '_id', fields: remoteNames.join(','), include_total: false },
      'GET',
      signal,
    );
    const remote = Array.isArray(page.records) ? (page.records[0] as RemoteDict | undefined) : undefined;
    const column = remoteNames.findIndex((f, i) => !remote || !sameValue(local?.[i] ?? null, remote[f] ?? null));
    if (column >= 0) {
      const shown = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v).slice(0, 80));
      throw new PortalError(
        message(
          'push.readback_mismatch',
          `Row ${position + 1} read back from the portal differs from the one here in "${fields[column]}" (here ${shown(local?.[column] ?? null)}, there ${shown(remote?.[remoteNames[column]!])}); the push is not marked complete.`,
          {
            row: position + 1,
            column: fields[column]!,
            local: shown(local?.[column] ?? null),
            remote: shown(remote?.[remoteNames[column]!]),
          },
        ),
      );
    }
  }
  return positions.length;
}
