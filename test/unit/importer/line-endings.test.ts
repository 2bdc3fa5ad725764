import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../../../src/main/importer/import-file';
import { previewFile } from '../../../src/main/importer/preview';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/**
 * A preamble line above the header, with each line ending: the lines skipped are counted with
 * the file's own line ending (old Mac exports end lines with a bare CR).
 */
const dir = tempDir();
afterAll(() => removeDir(dir));

const ENDINGS = { LF: '\n', CRLF: '\r\n', CR: '\r' } as const;

describe.each(Object.entries(ENDINGS))('preamble + header + rows ending in %s', (name, eol) => {
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, ['Estratto del 24/03/2022', 'comune;abitanti', 'Aosta;33916', 'Bard;118', ''].join(eol));

  it('imports the rows below the header', async () => {
    const result = await importFile({ path: file, resourceId: `r-${name}`, dir: join(dir, name), generation: 1, ftsLanguage: 'simple' });
    expect(result.skipLines).toBe(1);
    expect(result.rows).toBe(2);
    expect(result.fields.map((f) => [f.id, f.type])).toEqual([
      ['comune', 'text'],
      ['abitanti', 'int4'],
    ]);
  });

  it('previews the same header and rows', async () => {
    const preview = await previewFile(file, 'file.csv', {});
    expect(preview.skipLines).toBe(1);
    expect(preview.columns.map((c) => c.id)).toEqual(['comune', 'abitanti']);
    expect(preview.rows).toEqual([
      ['Aosta', '33916'],
      ['Bard', '118'],
    ]);
  });
});
