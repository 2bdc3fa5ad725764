import { appendFileSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../../src/main/errors';
import { Journal } from '../../../src/main/engine/journal/journal';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

const dir = tempDir();
afterAll(() => removeDir(dir));

describe('journal', () => {
  it('returns every appended entry after reopening', () => {
    const path = join(dir, 'a.journal');
    const { journal } = Journal.open(path);
    journal.append({ n: 1 });
    journal.append({ n: 2, text: 'città' });
    journal.close();
    expect(Journal.open(path).entries).toEqual([{ n: 1 }, { n: 2, text: 'città' }]);
  });

  it('drops a torn last entry (a write cut by a crash) and appends after the last whole one', () => {
    const path = join(dir, 'b.journal');
    const { journal } = Journal.open(path);
    journal.append({ n: 1 });
    journal.append({ n: 2 });
    journal.close();
    truncateSync(path, readFileSync(path).length - 3);
    const reopened = Journal.open<{ n: number }>(path);
    expect(reopened.entries).toEqual([{ n: 1 }]);
    reopened.journal.append({ n: 3 });
    reopened.journal.close();
    expect(Journal.open(path).entries).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('ignores garbage after the last entry but refuses damage in the middle', () => {
    const path = join(dir, 'c.journal');
    const { journal } = Journal.open(path);
    journal.append({ n: 1 });
    journal.append({ n: 2 });
    journal.close();
    appendFileSync(path, Buffer.from([5, 0, 0, 0, 1, 2, 3, 4, 9]));
    expect(Journal.open(path).entries).toHaveLength(2);
    const bytes = readFileSync(path);
    bytes[10] = bytes[10]! ^ 0xff; // inside the first entry's payload
    writeFileSync(path, bytes);
    expect(() => Journal.open(path)).toThrow(StorageError);
  });

  it('counts entries and bytes, and a missing file is an empty journal', () => {
    const { journal, entries } = Journal.open(join(dir, 'none.journal'));
    expect(entries).toEqual([]);
    expect(journal.count).toBe(0);
    journal.append({ x: 'y' });
    expect(journal.count).toBe(1);
    expect(journal.size).toBeGreaterThan(8);
    journal.close();
  });
});
