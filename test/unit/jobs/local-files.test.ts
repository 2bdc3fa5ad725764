import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFiles } from '../../../src/main/jobs/local-files';
import { ValidationError } from '../../../src/main/errors';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

const dir = tempDir('deskstore-local-unit-');
afterAll(() => removeDir(dir));
mkdirSync(join(dir, 'allowed'));
writeFileSync(join(dir, 'allowed', 'a.csv'), 'x\n1\n');
writeFileSync(join(dir, 'b.csv'), 'x\n2\n');

describe('local file grants', () => {
  it('names a granted file by its handle until it is consumed', () => {
    const files = new LocalFiles();
    const granted = files.grant(join(dir, 'b.csv'));
    expect(granted).toMatchObject({ name: 'b.csv', size: 4 });
    expect(files.granted(granted.handle).path).toBe(join(dir, 'b.csv'));
    files.consume(granted.handle);
    expect(() => files.granted(granted.handle)).toThrow(ValidationError);
  });

  it('forgets handles after a day', () => {
    let now = 0;
    const files = new LocalFiles([], () => now);
    const granted = files.grant(join(dir, 'b.csv'));
    now = 24 * 3600 * 1000 - 1;
    expect(files.granted(granted.handle).name).toBe('b.csv');
    now = 24 * 3600 * 1000 + 1;
    expect(() => files.granted(granted.handle)).toThrow(/No such file handle/);
  });

  it('allows paths only inside the configured folders', () => {
    const files = new LocalFiles([join(dir, 'allowed')]);
    expect(files.allowedPath(join(dir, 'allowed', 'a.csv'), 'url').name).toBe('a.csv');
    expect(() => files.allowedPath(join(dir, 'b.csv'), 'url')).toThrow(/only read from/);
    expect(() => files.allowedPath(join(dir, 'allowed', '..', 'b.csv'), 'url')).toThrow(/only read from/);
    // A folder whose name starts like the allowed one is not inside it.
    mkdirSync(join(dir, 'allowed-not'));
    writeFileSync(join(dir, 'allowed-not', 'c.csv'), 'x\n');
    expect(() => files.allowedPath(join(dir, 'allowed-not', 'c.csv'), 'url')).toThrow(/only read from/);
  });
});
