// A headless Deskstore for the benchmarks: `deskstore serve` on an OS-chosen port, resolved
// once it prints its URL, with the data directory's token.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', 'out/main/cli.js');

// `cli`: another build's cli.js (bench/first-q.js, first-sql.js and resident-memory.js compare builds); `nodeArgs`: e.g. --cpu-prof.
export function startServer(dataDir, { cli = CLI, nodeArgs = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, cli, 'serve', '--data', dataDir, '--port', '0', '--no-sample'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Deskstore listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1], token: readFileSync(join(dataDir, 'api-token'), 'utf8').trim() });
    });
    child.stderr.on('data', (d) => process.env.BENCH_VERBOSE && process.stderr.write(d));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

export async function stopServer(server) {
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
}
