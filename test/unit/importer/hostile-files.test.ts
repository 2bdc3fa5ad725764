import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatOf } from '../../../src/main/importer/formats';
import { wordedFailure } from '../../../src/main/importer/import-errors';
import { fixtureFile } from '../../helpers/fixtures';

/**
 * Issue 21: importer errors reached the user as stack traces (`undefined entity`, `Maximum call
 * stack size exceeded` on a JSON value 5,000 levels deep). Every one is now a coded message the
 * UI words in the user's language, and JSON files have the nesting limit of API bodies.
 */
const dir = mkdtempSync(join(tmpdir(), 'deskstore-hostile-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(path: string, name: string): Promise<unknown> {
  return (await formatOf(path, name)).read({ path, name, choices: {} }).then(
    () => null,
    (err: unknown) => err,
  );
}

describe('hostile files get coded messages', () => {
  it('refuses JSON nested past the limit of API bodies, before anything walks it', async () => {
    const path = join(dir, 'deep.json');
    writeFileSync(path, `[{"a": 1, "b": ${'['.repeat(5000)}${']'.repeat(5000)}}]`);
    expect(await refusal(path, 'deep.json')).toMatchObject({ worded: { code: 'import.refused.json_too_deep', params: { max: 100 } } });
    const fine = join(dir, 'fine.json');
    writeFileSync(fine, `[{"a": 1, "b": ${'['.repeat(90)}${']'.repeat(90)}}]`);
    expect(await refusal(fine, 'fine.json')).toBeNull();
  });

  it('words an XML part that uses an undeclared entity', async () => {
    expect(await refusal(fixtureFile('messy', 'undefined-entity.xlsx'), 'undefined-entity.xlsx')).toMatchObject({
      worded: { code: 'import.refused.bad_xml', params: { reason: expect.stringMatching(/undefined entity/) } },
    });
  });

  it('words any other failure, the raw detail as a parameter, a stack overflow as too deep', () => {
    expect(wordedFailure(new TypeError('x is not a function'))).toEqual({
      code: 'import.refused.failed',
      text: 'The file could not be imported: x is not a function',
      params: { reason: 'x is not a function' },
    });
    expect(wordedFailure(new RangeError('Maximum call stack size exceeded'))).toMatchObject({ code: 'import.refused.too_deep' });
  });
});
