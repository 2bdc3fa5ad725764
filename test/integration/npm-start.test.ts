import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain JS module without types
import { electronBinary } from '../../scripts/electron-binary.js';
import { ROOT, removeDir, requireBuilt, tempDir } from '../helpers/deskstore-process';

/**
 * `npm start` where the Electron binary is missing: one line saying so, then the same UI
 * served headless, with the URL to open (the data directory's token in its fragment).
 */
const electron = electronBinary(ROOT) as { path: string | null; reason?: string };
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function runStart(args: string[]): Promise<{ out: string; err: string; code: number | null }> {
  requireBuilt();
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no URL in 30 s: ${out} ${err}`));
    }, 30_000);
    child.stdout.on('data', async (d: Buffer) => {
      out += d.toString();
      const m = /Open (http:\/\/127\.0\.0\.1:\d+)\/en\/#token=\S+ in a browser/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      const page = await fetch(`${m[1]}/en/`);
      out += `\nGET /en/ ${page.status} ${(await page.text()).includes('<div id="root"') ? 'ui' : 'not-ui'}\n`;
      child.once('exit', (code) => resolve({ out, err, code }));
      child.kill('SIGTERM');
    });
  });
}

describe.skipIf(electron.path !== null)('npm start without the Electron binary', () => {
  it("says so in one line, serves the UI headless and prints its URL with the chosen directory's token", async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const { out, err, code } = await runStart(['--data', dataDir, '--port', '0', '--no-sample']);
    const lines = out.trim().split('\n');
    expect(lines[0]).toMatch(/^Electron is not available \(.+\); serving the Deskstore UI headless instead\.$/);
    expect(lines.filter((l) => l.startsWith('Electron is not available'))).toHaveLength(1);
    const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
    expect(out).toContain(`/en/#token=${token} in a browser`);
    expect(out).toMatch(/GET \/en\/ 200 ui/);
    expect(err).toContain(`API token: ${join(dataDir, 'api-token')}`);
    expect(code).toBe(0);
  });
});

if (electron.path !== null)
  console.log(`npm start test skipped: the Electron binary is present (${electron.path}), so npm start opens a window`);
