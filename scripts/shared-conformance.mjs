#!/usr/bin/env node
// CI extra (not part of `npm test`): when the workspace's ../shared/conformance is beside the
// checkout, run its black-box CKAN runner against a fresh headless server built by `npm test`.
// The project's own CKAN compatibility suite (test/compat) is what `npm test` runs; this is a
// second opinion from cases the project does not own. Exits with the runner's status.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runner = process.argv[2] ?? resolve(root, '../shared/conformance/run.mjs');
const dataDir = mkdtempSync(join(tmpdir(), 'deskstore-conformance-'));
const server = spawn(process.execPath, [join(root, 'out/main/cli.js'), 'serve', '--data', dataDir, '--port', '0', '--no-sample'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
let out = '';
const url = await new Promise((resolveUrl, reject) => {
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const m = /Deskstore listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
    if (m) resolveUrl(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
const token = readFileSync(join(dataDir, 'api-token'), 'utf8').trim();
// `--token=…`: a token of an older data folder may start with '-', which a parser reads as an option.
const run = spawnSync(process.execPath, [runner, '--base', url, `--token=${token}`], { stdio: 'inherit', timeout: 300_000 });
server.kill('SIGTERM');
await new Promise((done) => server.once('exit', done));
rmSync(dataDir, { recursive: true, force: true });
process.exit(run.status ?? 1);
