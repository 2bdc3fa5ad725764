import { existsSync } from 'node:fs';
import type { ChangeCounts } from '../../../shared/wire/versions';
import { columnsPath, readColumnsFile } from '../storage/resource-files';
import { countsOf, diffStores, type RowMatching } from './row-diff';

/**
 * How many rows were added, removed and changed between two generations' files, rows matched
 * as `deskstore_changes` matches them by default (row-diff.ts): what a sync reports for a
 * resource it updated, so that the two always agree. Null when either file is missing.
 */
export function diffGenerations(dir: string, before: number, after: number, matching: Omit<RowMatching, 'key'>): ChangeCounts | null {
  if (!existsSync(columnsPath(dir, before)) || !existsSync(columnsPath(dir, after))) return null;
  return countsOf(diffStores(readColumnsFile(dir, before).store, readColumnsFile(dir, after).store, matching));
}
