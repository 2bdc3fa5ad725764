import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA, FIXTURES } from '../helpers/fixtures';

/** The SHA-256 list of test/fixtures/README.md, so the README and the bytes cannot drift apart. */
function publishedHashes(): Map<string, string> {
  const readme = readFileSync(join(FIXTURES, 'README.md'), 'utf8');
  const block = /SHA-256 of each original file[\s\S]*?```\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('test/fixtures/README.md has no SHA-256 block');
  return new Map(
    block[1]!
      .trim()
      .split('\n')
      .map((line) => {
        const [hash, name] = line.trim().split(/\s+/) as [string, string];
        return [name, hash];
      }),
  );
}

describe('vendored real data files', () => {
  const hashes = publishedHashes();
  it('lists all six files', () => {
    expect(hashes.size).toBe(6);
  });
  for (const [name, hash] of hashes) {
    it(`${name} unpacks to the bytes its source published`, () => {
      expect(
        createHash('sha256')
          .update(readFileSync(join(DATA, name)))
          .digest('hex'),
      ).toBe(hash);
    });
  }
});
