import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../../../src/main/importer/import-file';
import { readColumnsFile } from '../../../src/main/engine/storage/resource-files';
import { fixtureFile } from '../../helpers/fixtures';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * What an import of vendored files gives — every row's value in every column, the types, the
 * repairs with their line numbers — is the same as before the reading was made faster (issue
 * 24: line breaks counted per chunk of the parser, safe integers typed without BigInt). The
 * digests below were computed with the code before that change (commit c07bc21); a change
 * that alters what an import stores must say so by updating them.
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

/** One digest of the import: fields and types, repairs, then each column's value per row. */
async function importDigest(path: string, name: string): Promise<{ rows: number; digest: string }> {
  const target = join(dir, name);
  const result = await importFile({ path, name, resourceId: `r-${name}`, dir: target, generation: 1, ftsLanguage: 'simple' });
  const hash = createHash('sha256');
  hash.update(JSON.stringify(result.fields.map((f) => [f.id, f.type])));
  hash.update(JSON.stringify(result.repairs.map((r) => [r.kind, r.action, r.rows, r.lines, r.examples.map((e) => [e.line, e.raw])])));
  const { store } = readColumnsFile(target, 1, true);
  for (const column of store.columns) {
    const values = column.values;
    const cells: unknown[] = [];
    for (let row = 1; row <= result.rows; row++) cells.push(values[column.codes[row]!] ?? null);
    hash.update(column.id);
    hash.update(JSON.stringify(cells));
  }
  return { rows: result.rows, digest: hash.digest('hex') };
}

describe('an import stores the same as before the faster reading', () => {
  it.each([
    ['messy', 'registry-export.csv', 240, 'e2a851d7a08435f36cfd54007ddcfc13906faf218686f050decf9f1e8070628c'],
    ['data', 'dpc-covid19-ita-province.csv.gz', 262807, '883041dfc518c59ec7bf2da0a103231b6e1d06e4a21be60602f30bda841ff6cf'],
    ['data', 'istat-elenco-comuni-italiani.csv.gz', 7901, 'bfedb68464cbacb4dfb45cbc8b20b81fa46e9214b42b62a52d29f00d81532437'],
    ['data', 'country-codes.csv.gz', 249, '39afbc4113e959e110fb40409ca0b02a9dabd5357e04d115ea696862931fdc95'],
    ['data', 'world-cities.csv.gz', 34032, '9c115b09123388c3f1ff99c805005368a69752824792d2551d24ae78b0824d7e'],
  ])('%s/%s', async (folder, name, rows, digest) => {
    const got = await importDigest(fixtureFile(folder, name), name);
    if (process.env.PRINT_DIGESTS) console.log(JSON.stringify([folder, name, got.rows, got.digest]));
    expect(got).toEqual({ rows, digest });
  });
});
