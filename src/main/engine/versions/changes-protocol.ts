import type { RecordsFormat } from '../../../shared/wire/search';
import type { ChangeCounts, ChangeKeyReason, ChangeKind } from '../../../shared/wire/versions';
import type { FromCallWorker } from '../worker-calls';
import type { ChangesPlan } from './changes-plan';

/** Messages between the main thread (changes-runner.ts) and the changes worker (changes-worker.ts). */
export interface ChangesTask {
  readonly plan: ChangesPlan;
  readonly key?: readonly string[];
  readonly change: ChangeKind | null;
  readonly offset: number;
  readonly limit: number;
  /** `objects` for the action; the changes dump asks for its writer's format (change-records.ts). */
  readonly format?: RecordsFormat;
}

/** One page of changes; `records` is JSON text, spliced into the answer as it is. */
export interface ChangesAnswer {
  readonly key: readonly string[] | 'row';
  readonly keyReason: ChangeKeyReason | null;
  readonly counts: ChangeCounts;
  readonly total: number;
  readonly fields: readonly { readonly id: string; readonly type: string }[];
  readonly records: string;
}

export interface ToChangesWorker {
  readonly id: number;
  readonly task: ChangesTask;
}

export type FromChangesWorker = FromCallWorker<ChangesAnswer>;
