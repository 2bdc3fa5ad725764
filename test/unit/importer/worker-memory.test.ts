import { describe, expect, it } from 'vitest';
import { runTask } from '../../../src/main/importer/worker-runner';
import { isImportInputError, wordingOf } from '../../../src/main/importer/import-errors';

/**
 * Issue 21: an import worker had no heap limit, so running out of memory in it ended the whole
 * process. With `resourceLimits` Node stops only that worker, and the import is refused with
 * a worded error (`limits.out_of_memory`) while this process goes on.
 */
describe('an import worker out of memory', () => {
  it('stops that worker alone and rejects with a worded error', async () => {
    const worker = new URL('./workers/hoarding-worker.mjs', import.meta.url);
    const err = await runTask(worker, { mode: 'preview', path: '/nothing', name: 'x.csv', choices: {} }, () => undefined, undefined, {
      maxOldGenerationSizeMb: 48,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isImportInputError(err)).toBe(true);
    expect(wordingOf(err)).toMatchObject({ code: 'limits.out_of_memory', params: { max: '48 MB' } });
  }, 60_000);
});
