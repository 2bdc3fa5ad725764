import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TableStore } from '../column-store/table-store';
import { decodeIndex, encodeIndex, type InvertedIndex } from '../fts';
import { decodeContainer, encodeContainer, CorruptContainerError } from './binary-container';
import { decodeColumns, encodeColumns, type ColumnsHeader } from './column-codec';
import { storageFailure, writeFileDurably } from './durable-files';

/**
 * The files of one version ("generation") of a resource, in `resources/<id>/`:
 *   <generation>.sqlite   the table: the durable truth
 *   <generation>.columns  column store + full-text index, derived from the table
 * A new generation is written completely and fsynced before the catalogue points at it, so a
 * crash leaves the old version or the new one. Files of other generations are garbage.
 */

export function resourceDir(dataDir: string, resourceId: string): string {
  return join(dataDir, 'resources', resourceId);
}

export const sqlitePath = (dir: string, generation: number): string => join(dir, `${generation}.sqlite`);
export const columnsPath = (dir: string, generation: number): string => join(dir, `${generation}.columns`);

interface ColumnsFileHeader {
  readonly columns: ColumnsHeader;
  readonly text: { meta: unknown; sections: number[] };
  readonly ftsLanguage: string;
}

export interface ResourceImage {
  readonly sqlite: Uint8Array;
  readonly store: TableStore;
  readonly textIndex: InvertedIndex;
  readonly ftsLanguage: string;
}

/** Writes both files of a generation durably; returns their total size in bytes. */
export function writeResourceFiles(dir: string, generation: number, image: ResourceImage): number {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (err) {
    throw storageFailure(`Could not create ${dir}`, err);
  }
  const sections: Uint8Array[] = [];
  const columns = encodeColumns(image.store, sections);
  const encodedText = encodeIndex(image.textIndex);
  const textSections = encodedText.buffers.map((b) => sections.push(b) - 1);
  const header: ColumnsFileHeader = { columns, text: { meta: encodedText.meta, sections: textSections }, ftsLanguage: image.ftsLanguage };
  const parts = encodeContainer({ ...header }, sections);
  writeFileDurably(sqlitePath(dir, generation), [image.sqlite]);
  writeFileDurably(columnsPath(dir, generation), parts);
  return image.sqlite.byteLength + parts.reduce((n, p) => n + p.byteLength, 0);
}

export function readColumnsFile(dir: string, generation: number): { store: TableStore; textIndex: InvertedIndex; ftsLanguage: string } {
  const path = columnsPath(dir, generation);
  let file: Buffer;
  try {
    file = readFileSync(path);
  } catch (err) {
    throw storageFailure(`Could not read ${path}`, err);
  }
  const { header, sections } = decodeContainer(file);
  const h = header as unknown as ColumnsFileHeader;
  if (!h.columns || !h.text) throw new CorruptContainerError(`${path} lacks its column or text sections`);
  const store = decodeColumns(h.columns, sections);
  const textIndex = decodeIndex(h.text.meta, h.text.sections.map((i) => {
    const s = sections[i];
    if (!s) throw new CorruptContainerError(`${path} lacks text section ${i}`);
    return s;
  }));
  return { store, textIndex, ftsLanguage: h.ftsLanguage };
}

export function readSqliteFile(dir: string, generation: number): Uint8Array {
  const path = sqlitePath(dir, generation);
  try {
    return readFileSync(path);
  } catch (err) {
    throw storageFailure(`Could not read ${path}`, err);
  }
}

export function generationSize(dir: string, generation: number): number {
  let size = 0;
  for (const p of [sqlitePath(dir, generation), columnsPath(dir, generation)]) {
    try {
      size += statSync(p).size;
    } catch {
      // a missing file is reported when it is read
    }
  }
  return size;
}

/**
 * Removes the files of generations older than `keep` (replaced versions). Newer ones are left
 * alone: an import may be writing one right now.
 */
export function removeOlderGenerations(dir: string, keep: number): void {
  removeMatchingFiles(dir, (generation) => generation !== null && generation < keep);
}

/** At start-up, before any import runs: everything but `keep`, crash leftovers included. */
export function removeAllGenerationsBut(dir: string, keep: number | null): void {
  removeMatchingFiles(dir, (generation) => generation === null || generation !== keep);
}

/** Removes one generation's files (an abandoned import) and stray temporary files. */
export function removeGenerationFiles(dir: string, generation: number): void {
  removeMatchingFiles(dir, (g) => g === generation);
}

function removeMatchingFiles(dir: string, shouldRemove: (generation: number | null) => boolean): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const generation = /^(\d+)\.(sqlite|columns|journal)$/.exec(name);
    const temporary = /^\..*\.tmp$/.test(name);
    if (!generation && !temporary) continue;
    if (shouldRemove(generation ? Number(generation[1]) : null)) rmSync(join(dir, name), { force: true });
  }
}
