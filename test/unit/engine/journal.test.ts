import { appendFileSync, readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

  it('ignores garbage after the last entry (a torn write), even one whose bytes never reached the disk', () => {
    const path = join(dir, 'c.journal');
    const { journal } = Journal.open(path);
    journal.append({ n: 1 });
    journal.append({ n: 2 });
    journal.close();
    appendFileSync(path, Buffer.from([5, 0, 0, 0, 1, 2, 3, 4, 9]));
    expect(Journal.open(path)).toMatchObject({ entries: [{ n: 1 }, { n: 2 }], damage: null });
    const whole = readFileSync(path);
    // A frame whose header was written but whose payload is still zeros (metadata before data).
    writeFileSync(path, Buffer.concat([whole.subarray(0, whole.length - 9), Buffer.from([8, 0, 0, 0, 1, 2, 3, 4]), Buffer.alloc(8)]));
    expect(Journal.open(path)).toMatchObject({ entries: [{ n: 1 }, { n: 2 }], damage: null });
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

describe('a damaged journal (issue 8: one flipped bit made acknowledged entries vanish)', () => {
  const entries = [1, 2, 3, 4, 5].map((n) => ({ ops: [{ t: 'put', id: n, v: { n, testo: `riga ${n}` } }] }));
  /** A journal of five entries; returns the byte offset of each. */
  function written(name: string): { path: string; offsets: number[]; original: Buffer } {
    const path = join(dir, name);
    const { journal } = Journal.open(path);
    const offsets: number[] = [];
    for (const e of entries) {
      offsets.push(journal.size);
      journal.append(e);
    }
    journal.close();
    return { path, offsets, original: readFileSync(path) };
  }
  const flip = (path: string, byte: number, bit: number) => {
    const bytes = readFileSync(path);
    bytes[byte] = bytes[byte]! ^ (1 << bit);
    writeFileSync(path, bytes);
  };
  const copies = (path: string) =>
    readdirSync(dir)
      .filter((f) => f.startsWith(`${basename(path)}.damaged-`))
      .map((f) => join(dir, f));

  it('recovers every entry when only a length field is damaged, and keeps the damaged file aside', () => {
    const { path, offsets, original } = written('length.journal');
    flip(path, offsets[1]! + 2, 4); // entry 2's length grows by 1 MiB: past the end of the file
    const damagedBytes = readFileSync(path);
    const opened = Journal.open(path);
    expect(opened.entries).toEqual(entries);
    expect(opened.damage).toMatchObject({
      offset: offsets[1],
      replayed: 5,
      recovered: 1,
      lostEntry: false,
      notReplayed: 0,
      unrepaired: null,
    });
    expect(copies(path)).toEqual([opened.damage!.keptAs]);
    expect(readFileSync(opened.damage!.keptAs!)).toEqual(damagedBytes);
    // The journal itself is whole again, and a new write follows the last entry.
    expect(readFileSync(path)).toEqual(original);
    opened.journal.append({ ops: [] });
    opened.journal.close();
    expect(Journal.open(path)).toMatchObject({ entries: [...entries, { ops: [] }], damage: null });
  });

  it('replays the entries before damaged content, keeps the rest in the copy, and never cuts them off', () => {
    const { path, offsets, original } = written('payload.journal');
    flip(path, offsets[1]! + 20, 1); // inside entry 2's JSON
    const opened = Journal.open(path);
    expect(opened.entries).toEqual(entries.slice(0, 1));
    expect(opened.damage).toMatchObject({ offset: offsets[1], replayed: 1, recovered: 0, lostEntry: true, notReplayed: 3 });
    opened.journal.append({ ops: [{ t: 'truncate' }] });
    opened.journal.close();
    expect(Journal.open(path).entries).toEqual([entries[0], { ops: [{ t: 'truncate' }] }]);
    // Entries 3 to 5 are still in the copy, byte for byte.
    const copy = readFileSync(opened.damage!.keptAs!);
    expect(copy.subarray(offsets[2])).toEqual(original.subarray(offsets[2]));
  });

  it('tells a damaged last entry from a torn one', () => {
    const { path, offsets } = written('last.journal');
    flip(path, offsets[4]! + 15, 3); // inside the last entry, which is complete
    const opened = Journal.open(path);
    expect(opened.entries).toEqual(entries.slice(0, 4));
    expect(opened.damage).toMatchObject({ offset: offsets[4], replayed: 4, lostEntry: true, notReplayed: 0 });
    expect(copies(path)).toHaveLength(1);
    opened.journal.close();
  });
});
