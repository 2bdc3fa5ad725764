import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalogue } from '../../../src/main/engine/catalogue/catalogue';
import { createPackage } from '../../../src/main/engine/catalogue/catalogue-operations';

/**
 * The record a crashed write's outcome is read from (engine-client.ts, Engine.writeOutcome):
 * a commit made while a write runs saves its id, in the same file as its change, and only then.
 */
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'deskstore-saved-writes-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('saved writes in the catalogue', () => {
  it('keeps the id and the noted answer of a committed write, readable after reopening', () => {
    const dir = freshDir();
    const catalogue = Catalogue.open(dir);
    catalogue.beginWrite('w-1', ['request']);
    catalogue.commit(() => catalogue.noteSavedAnswer({ id: createPackage(catalogue, { name: 'uno' }).id }));
    catalogue.endWrite();
    const reopened = Catalogue.open(dir);
    expect(reopened.savedWrite('w-1')).toEqual({ w: 'w-1', a: { id: reopened.findPackage('uno')!.id } });
    expect(reopened.savedWrite('w-2')).toBeUndefined();
  });

  it('saves nothing for a write whose change failed, nor for commits outside a write', () => {
    const dir = freshDir();
    const catalogue = Catalogue.open(dir);
    catalogue.beginWrite('w-failed', []);
    expect(() =>
      catalogue.commit(() => {
        createPackage(catalogue, { name: 'due' });
        throw new Error('refused');
      }),
    ).toThrow('refused');
    catalogue.endWrite();
    catalogue.commit(() => createPackage(catalogue, { name: 'tre' }));
    const reopened = Catalogue.open(dir);
    expect(reopened.savedWrite('w-failed')).toBeUndefined();
    expect(reopened.findPackage('due')).toBeUndefined();
    expect(reopened.findPackage('tre')).toBeDefined();
  });

  it('remembers the latest 64 writes, not every write ever made', () => {
    const dir = freshDir();
    const catalogue = Catalogue.open(dir);
    for (let i = 1; i <= 70; i++) {
      catalogue.beginWrite(`w-${i}`, []);
      catalogue.commit(() => createPackage(catalogue, { name: `p-${i}` }));
      catalogue.endWrite();
    }
    const reopened = Catalogue.open(dir);
    expect(reopened.savedWrite('w-6')).toBeUndefined();
    expect(reopened.savedWrite('w-7')).toEqual({ w: 'w-7' });
    expect(reopened.savedWrite('w-70')).toEqual({ w: 'w-70' });
  });
});
