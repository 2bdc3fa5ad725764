/**
 * The real open-data files the tests read, vendored gzipped in test/fixtures/data (see its
 * README: source, commit, licence, SHA-256 of each original). The repository keeps them
 * compressed to stay small; tests get the original bytes back, unpacked once into a cache
 * folder named after the archives' contents, so every process (vitest forks, Playwright
 * workers, the CLI under test) reads the same plain files. The province file is published
 * gzipped and stays so: tests read it as `.csv.gz`, which is what they exercise.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures');
const ARCHIVES = join(FIXTURES, 'data');
/** Published gzipped: used as they are, not unpacked. */
const KEPT_GZIPPED = new Set(['dpc-covid19-ita-province.csv.gz']);

function unpackedDir(): string {
  const names = readdirSync(ARCHIVES)
    .filter((n) => n.endsWith('.gz'))
    .sort();
  const hash = createHash('sha256');
  for (const name of names) hash.update(name).update(readFileSync(join(ARCHIVES, name)));
  const dir = join(tmpdir(), `deskstore-fixtures-${hash.digest('hex').slice(0, 16)}`);
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    const target = join(dir, KEPT_GZIPPED.has(name) ? name : name.slice(0, -'.gz'.length));
    if (existsSync(target)) continue;
    const bytes = readFileSync(join(ARCHIVES, name));
    // Temp file + rename: parallel test processes may unpack at the same moment.
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, KEPT_GZIPPED.has(name) ? bytes : gunzipSync(bytes));
    renameSync(temp, target);
  }
  return dir;
}

/** The folder holding the real data files with their original names and bytes. */
export const DATA = process.env.DESKSTORE_TEST_DATA ?? unpackedDir();

/** A real data file by its original name (`world-cities.csv`). */
export function dataFile(name: string): string {
  return join(DATA, name);
}

/** A small fixture built for one area (test/fixtures/<area>/, documented in test/fixtures/README.md). */
export function fixtureFile(area: string, name: string): string {
  return join(FIXTURES, area, name);
}
