import type { ResourceVersion, VersionSource } from '../../../shared/wire/versions';
import type { DatastoreRecord, KeptVersion, ResourceRecord, VersionStamp } from '../catalogue/records';
import { generationSize } from '../storage/resource-files';

/**
 * The versions of a resource's data (docs/versions.md): every publication of new data (a
 * mirror or a sync that brought new rows, Replace data, an import into an existing resource)
 * makes the current version an earlier one, whose generation's files then stay on disk until
 * more than `keep` versions exist in all. The list lives in the catalogue, so it changes in the
 * same atomic commit as the data; files of dropped versions are deleted only after it.
 */

/** Versions kept in all, the current one included, unless `--keep-versions` says otherwise. */
export const DEFAULT_KEEP_VERSIONS = 3;

/** The current version's stamp; a catalogue written before versions has version 1. */
export function currentStamp(resource: ResourceRecord, ds: DatastoreRecord): VersionStamp {
  return (
    ds.version ?? {
      number: 1,
      created: ds.updated,
      source: resource.mirror ? 'mirror' : resource.source ? 'import' : 'create',
      ...(resource.mirror?.via === 'datastore' ? { portalIds: true } : {}),
    }
  );
}

export interface Succession {
  readonly version: VersionStamp;
  readonly olderVersions: readonly KeptVersion[];
  /** Versions no longer kept: their files go once the catalogue no longer names them. */
  readonly dropped: readonly KeptVersion[];
}

/** The version fields of new data replacing `previous` (none: the first version). */
export function succeed(
  resource: ResourceRecord,
  previous: DatastoreRecord | null,
  source: VersionSource,
  keep: number,
  portalIds = false,
): Succession {
  const created = new Date().toISOString();
  const flags = portalIds ? { portalIds } : {};
  if (!previous) return { version: { number: 1, created, source, ...flags }, olderVersions: [], dropped: [] };
  const stamp = currentStamp(resource, previous);
  const all: KeptVersion[] = [{ ...stamp, generation: previous.generation, rows: previous.rowCount }, ...(previous.olderVersions ?? [])];
  return {
    version: { number: stamp.number + 1, created, source, ...flags },
    olderVersions: all.slice(0, Math.max(0, keep - 1)),
    dropped: all.slice(Math.max(0, keep - 1)),
  };
}

/** Every generation whose files a resource needs: the current one and the kept versions'. */
export function keptGenerations(ds: DatastoreRecord | null | undefined): Set<number> {
  return new Set(ds ? [ds.generation, ...(ds.olderVersions ?? []).map((v) => v.generation)] : []);
}

/** `deskstore_versions`' list, newest first, with the disk each version's files take. */
export function listVersions(resource: ResourceRecord, ds: DatastoreRecord, dir: string): ResourceVersion[] {
  const stamp = currentStamp(resource, ds);
  return [
    {
      version: stamp.number,
      created: stamp.created,
      rows: ds.rowCount,
      source: stamp.source,
      current: true,
      size_bytes: generationSize(dir, ds.generation),
    },
    ...(ds.olderVersions ?? []).map((v) => ({
      version: v.number,
      created: v.created,
      rows: v.rows,
      source: v.source,
      current: false,
      size_bytes: generationSize(dir, v.generation),
    })),
  ];
}

/** A kept version by number, or the current one (`generation` is then the current generation). */
export function findVersion(
  resource: ResourceRecord,
  ds: DatastoreRecord,
  number: number,
): { stamp: VersionStamp; generation: number; current: boolean } | null {
  const stamp = currentStamp(resource, ds);
  if (stamp.number === number) return { stamp, generation: ds.generation, current: true };
  const kept = (ds.olderVersions ?? []).find((v) => v.number === number);
  return kept ? { stamp: kept, generation: kept.generation, current: false } : null;
}

export type { VersionSource };
