import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../../../src/main/importer/import-file';
import { previewFile } from '../../../src/main/importer/preview';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

/** A type forced by the column's original header text counts in the preview as in the import. */
const dir = tempDir();
afterAll(() => removeDir(dir));
const file = join(dir, 'codes.csv');
writeFileSync(file, '_codice;nome\n1;Aosta\n2;Bard\n');

describe('types forced by original header', () => {
  it('the header is renamed, and the type forced under its original text applies to the import', async () => {
    const result = await importFile({
      path: file,
      resourceId: 'r',
      dir: join(dir, 'r'),
      generation: 1,
      ftsLanguage: 'simple',
      types: { _codice: 'text' },
    });
    const column = result.fields[0]!;
    expect(column.id).not.toBe('_codice');
    expect(column.info.label).toBe('_codice');
    expect([column.type, column.reason.code]).toEqual(['text', 'import.type.forced']);
  });

  it('and to the preview', async () => {
    const preview = await previewFile(file, 'file.csv', { types: { _codice: 'text' } });
    expect(preview.columns[0]).toMatchObject({ label: '_codice', type: 'text', forced: true });
    expect((await previewFile(file, 'file.csv', {})).columns[0]).toMatchObject({ type: 'int4', forced: false });
  });
});
