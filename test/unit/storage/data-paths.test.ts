import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  PathOutsideDataFolderError,
  checkResourceId,
  isGeneratedId,
  pathInside,
  resourceDir,
  resourceFolderKey,
  uniqueFileName,
} from '../../../src/main/storage/data-paths';
import { ValidationError } from '../../../src/main/errors';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

const outer = tempDir('deskstore-data-paths-');
const data = join(outer, 'data');
mkdirSync(join(data, 'resources'), { recursive: true });
mkdirSync(join(outer, 'elsewhere'));
afterAll(() => removeDir(outer));

describe('resource ids (CKAN resource_id_validator)', () => {
  it('accepts UUIDs and CKAN ≤ 2.10 custom ids', () => {
    for (const id of [
      '3b4e1e5c-0a43-4f7e-9d38-2a1f0c8d9e11',
      'abcdefg',
      'with space_and-dash',
      'x'.repeat(100),
      'console',
      'con     x',
      'com10   ',
    ]) {
      expect(checkResourceId(id)).toBe(id);
    }
    expect(checkResourceId(1234567)).toBe('1234567');
  });

  it.each([
    ['..', 'Invalid characters in resource id'],
    ['../../x', 'Invalid characters in resource id'],
    ['a\\b\\cdefg', 'Invalid characters in resource id'],
    ['abc\u0000defg', 'Invalid characters in resource id'],
    ['città-abc', 'Invalid characters in resource id'],
    ['abcdef', 'Invalid length for resource id'],
    ['x'.repeat(101), 'Invalid length for resource id'],
    [{ id: 'abcdefgh' }, 'Invalid characters in resource id'],
    // Windows drops trailing spaces: these would be devices there (issue 21).
    ['con       ', 'Invalid resource id: Windows reserves this name for a device'],
    ['NUL     ', 'Invalid resource id: Windows reserves this name for a device'],
    ['Com1    ', 'Invalid resource id: Windows reserves this name for a device'],
    ['lpt9       ', 'Invalid resource id: Windows reserves this name for a device'],
  ])('refuses %j with CKAN’s words', (id, message) => {
    const refused = (() => {
      try {
        checkResourceId(id);
        return null;
      } catch (err) {
        return err;
      }
    })();
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).members).toEqual({ id: [message] });
  });

  it('folds ids that share a folder on a case-insensitive disk', () => {
    expect(resourceFolderKey('Risorsa-A  ')).toBe(resourceFolderKey('risorsa-a'));
    expect(resourceFolderKey('risorsa-a')).not.toBe(resourceFolderKey('risorsa-b'));
  });
});

describe('paths under the data folder', () => {
  it('builds a resource folder under resources/', () => {
    expect(resourceDir(data, 'abcdefgh')).toBe(join(data, 'resources', 'abcdefgh'));
  });

  it('refuses a resource id CKAN refuses even when called directly (the CLI, a portal)', () => {
    expect(() => resourceDir(data, '../../etc')).toThrow(ValidationError);
  });

  it('refuses segments that are not one plain name', () => {
    for (const segment of ['', '.', '..', 'a/b', 'a\\b', 'a\u0000b']) {
      expect(() => pathInside(data, segment), JSON.stringify(segment)).toThrow(PathOutsideDataFolderError);
    }
  });

  it('refuses a planted symbolic link that leads out of the data folder, dangling or not', () => {
    symlinkSync(join(outer, 'elsewhere'), join(data, 'resources', 'planted-link'));
    symlinkSync(join(outer, 'nowhere'), join(data, 'resources', 'dangling-link'));
    expect(() => resourceDir(data, 'planted-link')).toThrow(PathOutsideDataFolderError);
    expect(() => resourceDir(data, 'dangling-link')).toThrow(PathOutsideDataFolderError);
    expect(() => pathInside(join(data, 'resources', 'planted-link'), 'x')).not.toThrow();
  });

  it('follows a data folder that is itself a link (the user chose it)', () => {
    const linked = join(outer, 'linked-data');
    symlinkSync(data, linked);
    expect(resourceDir(linked, 'abcdefgh')).toBe(join(linked, 'resources', 'abcdefgh'));
  });

  it('names kept files by a fresh UUID, keeping only safe characters of the client’s name', () => {
    const name = uniqueFileName('../../etc/pass wd;.csv');
    expect(name).toMatch(/^[0-9a-f-]{36}-pass_wd_.csv$/);
    expect(uniqueFileName('..')).toMatch(/^[0-9a-f-]{36}$/);
    expect(uniqueFileName('C:\\Users\\me\\città.csv')).toMatch(/^[0-9a-f-]{36}-citt_.csv$/);
    expect(isGeneratedId(name.slice(0, 36))).toBe(true);
    expect(isGeneratedId('../staged')).toBe(false);
  });
});
