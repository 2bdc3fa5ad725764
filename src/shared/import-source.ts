/**
 * Where an imported resource's data came from and what the import did with it: kept in the
 * catalogue by the engine and sent to the UI and to scripts as the resource's
 * `deskstore.source` (a key CKAN clients ignore). One definition, so the two cannot drift.
 */
import type { Message } from './messages';
import type { ImportFormat, RepairAction, RepairExample, RepairKind } from './wire/import';

export interface RenamedColumn {
  readonly from: string;
  readonly to: string;
  readonly reason: string;
}

/** A column as the import typed it, and why. */
export interface ImportedColumn {
  readonly id: string;
  /** The header cell as read. */
  readonly label: string;
  readonly type: string;
  readonly reason: Message;
}

/** One kind of row problem the import met in the whole file: how many rows, where, what was done. */
export interface ImportRepair {
  readonly kind: RepairKind;
  readonly action: RepairAction;
  readonly rows: number;
  /** The first line numbers (at most 20). */
  readonly lines: readonly number[];
  /** The first rows (at most 3), as the file has them (cut at 300 characters) and what was done. */
  readonly examples: readonly RepairExample[];
  readonly message: Message;
}

export interface ImportSource {
  readonly file: string;
  readonly encoding: string;
  readonly delimiter: string;
  /** Lines above the header (a title, an extraction date) left out. */
  readonly skipLines: number;
  readonly bytes: number;
  readonly importedAt: string;
  readonly renamedColumns?: readonly RenamedColumn[];
  // The import's report (absent for resources imported before it was kept):
  readonly format?: ImportFormat;
  readonly sheet?: string;
  readonly entry?: string;
  readonly rows?: number;
  readonly columns?: readonly ImportedColumn[];
  readonly repairs?: readonly ImportRepair[];
  readonly warnings?: readonly Message[];
}
