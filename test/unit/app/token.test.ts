import { afterAll, expect, it } from 'vitest';
import { loadOrCreateToken } from '../../../src/main/app/token';
import { removeDir, tempDir } from '../../helpers/deskstore-process';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** A token is handed to command-line tools: one starting with '-' was read as an option. */
it('creates hex tokens, which never start with a dash, and reads the same one back', () => {
  for (let i = 0; i < 50; i++) {
    const dir = tempDir();
    dirs.push(dir);
    const created = loadOrCreateToken(dir);
    expect(created.created).toBe(true);
    expect(created.token).toMatch(/^[0-9a-f]{64}$/);
    expect(loadOrCreateToken(dir)).toMatchObject({ token: created.token, created: false });
  }
});
