/**
 * The import's wire contract: what `deskstore_import_preview` answers, what the load status
 * actions (`deskstore_import_status`, `xloader_status`, `datapusher_status`) answer, and the
 * column types an import can give. The importer, the actions and the UI all use these.
 */
import type { RenamedColumn } from '../import-source';
import type { Message } from '../messages';
import type { ResourceDict } from './catalogue';

export type { RenamedColumn };

/** The column types an import gives (and a user can force). */
export const IMPORT_TYPES = ['int4', 'int8', 'numeric', 'bool', 'date', 'timestamp', 'text'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

export function isImportType(value: unknown): value is ImportType {
  return typeof value === 'string' && (IMPORT_TYPES as readonly string[]).includes(value);
}

/**
 * An import's phases in order: read the file, decide types, build the full-text index, write
 * the columns file (searchable from here), then fill and write the SQLite table.
 */
export const IMPORT_PHASES = ['reading', 'typing', 'indexing', 'writing', 'storing'] as const;
export type ImportPhase = (typeof IMPORT_PHASES)[number];

/** A load job's phase: queued and downloading before the import's phases, done after. */
export type JobPhase = 'queued' | 'downloading' | ImportPhase | 'done';
export type JobState = 'pending' | 'running' | 'complete' | 'error' | 'cancelled';

/** A load's status, as the status actions answer it. */
export interface ImportJobStatus {
  /** null for a resource loaded before this server started. */
  readonly job_id: string | null;
  readonly resource_id: string;
  readonly status: JobState;
  readonly phase: JobPhase;
  readonly rows_done: number;
  /** Bytes of the file's content read so far (uncompressed, for a `.gz`). */
  readonly bytes_done: number;
  /** The content's size: for a compressed file an estimate, which `bytes_total_estimated` says. */
  readonly bytes_total: number;
  readonly bytes_total_estimated?: boolean;
  /** Rows the whole file is expected to hold, from what was read so far. */
  readonly rows_estimate?: number;
  readonly created?: string;
  readonly last_updated: string | null;
  /** The file name or URL loaded. */
  readonly source?: string;
  readonly error: { readonly message: string; readonly deskstore_message?: Message } | null;
  /** What was repaired in the file's rows, once the file is read (see RepairReport). */
  readonly repairs?: readonly RepairReport[];
  /** What the import noticed and decided that the user should know (a late encoding change, …). */
  readonly warnings?: readonly Message[];
  /** xloader's member, for scripts that read it. */
  readonly task_info?: Readonly<Record<string, unknown>>;
}

export interface PreviewColumn {
  /** The field id the table will get. */
  readonly id: string;
  /** The header cell as read. */
  readonly label: string;
  readonly type: ImportType;
  /** Why this type: the evidence (or that the user chose it). */
  readonly reason: Message;
  /** The type was chosen by the user. */
  readonly forced: boolean;
  /** A value of the sample that the forced type cannot read. */
  readonly problem?: Message;
}

// ---- formats ------------------------------------------------------------------------------

/** The kinds of file Deskstore imports, with their facts: src/shared/import-formats.ts. */
export { IMPORT_FORMATS, type ImportFormat } from '../import-formats';
import type { ImportFormat } from '../import-formats';

/** A sheet of a workbook, for the sheet picker. */
export interface SheetChoice {
  readonly name: string;
  /** The sheet has no cell with a value. */
  readonly empty: boolean;
}

/** A file inside a zip archive, for the entry picker. */
export interface EntryChoice {
  readonly name: string;
  /** Its size once extracted. */
  readonly bytes: number;
  /** How it would be read; null when Deskstore cannot import it. */
  readonly format: ImportFormat | null;
}

// ---- repairs ------------------------------------------------------------------------------

/**
 * The kinds of row problems an import repairs instead of refusing the file
 * (docs/importing.md, "Repairs"):
 * - `delimiter_in_value`: a row has more cells than the header, and a delimiter inside one
 *   text value explains it (the other columns then hold values of their types);
 * - `extra_cells`: a row has more cells than the header and nothing explains which;
 * - `missing_cells`: a row has fewer cells than the header;
 * - `stray_quotes`: a `"` that does not quote (it opens a value that never closes), read as text.
 */
export const REPAIR_KINDS = ['delimiter_in_value', 'extra_cells', 'missing_cells', 'stray_quotes'] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number];

/**
 * What to do with the rows of a kind: `repair` (join the split value, pad with empty cells,
 * read the quote as text), `extra_column` (keep the surplus cells, as they were, in an added
 * column), `skip` (leave the row out; never the default).
 */
export const REPAIR_ACTIONS = ['repair', 'extra_column', 'skip'] as const;
export type RepairAction = (typeof REPAIR_ACTIONS)[number];

/** The actions each kind offers, the default first. */
export const REPAIR_CHOICES: Readonly<Record<RepairKind, readonly RepairAction[]>> = {
  delimiter_in_value: ['repair', 'extra_column', 'skip'],
  extra_cells: ['extra_column', 'skip'],
  missing_cells: ['repair', 'skip'],
  stray_quotes: ['repair', 'skip'],
};

/** The user's choice per kind; a kind left out gets its default. */
export type RepairChoices = Readonly<Partial<Record<RepairKind, RepairAction>>>;

export function isRepairKind(value: unknown): value is RepairKind {
  return typeof value === 'string' && (REPAIR_KINDS as readonly string[]).includes(value);
}

/** Why `kind` = `action` is not a choice the import offers, or null when it is. */
export function repairChoiceProblem(kind: string, action: string): string | null {
  if (!isRepairKind(kind)) return `unknown kind ${JSON.stringify(kind)}: one of ${REPAIR_KINDS.join(', ')}`;
  if (!(REPAIR_CHOICES[kind] as readonly string[]).includes(action)) return `${kind} can be ${REPAIR_CHOICES[kind].join(', ')}`;
  return null;
}

/** The action for `kind`: the user's, if the kind offers it, else the default. */
export function repairActionFor(kind: RepairKind, choices: RepairChoices | undefined): RepairAction {
  const chosen = choices?.[kind];
  const offered = REPAIR_CHOICES[kind];
  return chosen !== undefined && offered.includes(chosen) ? chosen : offered[0]!;
}

/** One problem row, as the file has it and as it will be stored. */
export interface RepairExample {
  /** 1-based line of the file (for a sheet: its row number) where the row starts. */
  readonly line: number;
  /** The row's text as read (its cells joined by the delimiter). */
  readonly raw: string;
  /** What is done with it. */
  readonly outcome: Message;
}

/** Every row of one kind of problem: how many, where, and what is done with them. */
export interface RepairReport {
  readonly kind: RepairKind;
  readonly action: RepairAction;
  /** The actions the user may choose for this kind, the default first. */
  readonly actions: readonly RepairAction[];
  readonly rows: number;
  /** The first line numbers (at most 20). */
  readonly lines: readonly number[];
  /** The first rows (at most 5), with what is done with each. */
  readonly examples: readonly RepairExample[];
  /** The summary for people: how many rows, and what is done. */
  readonly message: Message;
}

// ---- the preview --------------------------------------------------------------------------

/** What an import would do, from the start of the file (`deskstore_import_preview`). */
export interface ImportPreview {
  readonly format: ImportFormat;
  /** Text formats: the encoding, delimiter and preamble lines used; spreadsheets: `utf-8`, `,`, rows above the header. */
  readonly encoding: string;
  readonly delimiter: string;
  readonly skipLines: number;
  /** 1-based line (or sheet row) of the header. */
  readonly headerLine: number;
  readonly confidence: number;
  /** How the file's layout was recognised. */
  readonly reasons: readonly Message[];
  /** What the import noticed that the user should know. */
  readonly warnings: readonly Message[];
  readonly columns: readonly PreviewColumn[];
  readonly renamed: readonly RenamedColumn[];
  readonly rows: readonly (readonly (string | null)[])[];
  /** The problem rows found in the part of the file the preview read, per kind. */
  readonly repairs: readonly RepairReport[];
  /** A workbook's sheets and the one shown (`deskstore_sheet`). */
  readonly sheets?: readonly SheetChoice[];
  readonly sheet?: string;
  /** A zip archive's files and the one shown (`deskstore_entry`). */
  readonly entries?: readonly EntryChoice[];
  readonly entry?: string;
  readonly bytes: number;
  readonly sampledWholeFile: boolean;
}

/** The preview action's answer: the preview and the staged upload to load it from later. */
export interface ImportPreviewResult extends ImportPreview {
  /** Names the staged upload for resource_create's `deskstore_upload_id`; null for a local file. */
  readonly upload_id: string | null;
}

/** resource_create / resource_update with a file to load: the resource and its load's status. */
export interface CreatedResource extends ResourceDict {
  readonly deskstore_job?: ImportJobStatus;
}
