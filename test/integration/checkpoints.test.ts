import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 8: checkpoints waited for 5 s of silence, so under steady traffic a journal past its
 * size threshold was never folded (a 9 MB journal stayed through 40 s of reads). The size
 * trigger now holds whatever the traffic.
 */
let server: ServerProcess;
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('checkpoints under steady traffic', () => {
  it('folds a journal past its size threshold while reads never pause', async () => {
    server = await startServer();
    const api = ckan(server.url, server.token);
    const pkg = await api.ok('package_create', { name: 'busy' });
    const rid = (
      await api.ok('datastore_create', {
        resource: { package_id: pkg.id },
        fields: [
          { id: 'k', type: 'int' },
          { id: 'testo', type: 'text' },
        ],
        records: [{ k: 0, testo: 'x' }],
      })
    ).resource_id as string;
    const dir = join(server.dataDir, 'resources', rid);
    const journals = () => readdirSync(dir).filter((f) => f.endsWith('.journal'));
    // A read first, so the reads below find the resource open, then one write of ~5 MB (the threshold is 4 MB).
    await api.ok('datastore_search', { resource_id: rid, limit: 1 });
    const records = Array.from({ length: 5_000 }, (_, i) => ({ k: i + 1, testo: `riga ${i} `.padEnd(1000, 'x') }));
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records });
    let reads = 0;
    let folded = false;
    // Back-to-back reads, never 5 s apart (nor 5 ms), for as long as it takes, at most 20 s.
    const until = Date.now() + 20_000;
    while (!folded && Date.now() < until) {
      const r = await api.ok('datastore_search', { resource_id: rid, limit: 1, q: 'riga' });
      expect(r.total).toBe(5_000);
      reads++;
      folded = journals().length === 0;
    }
    expect(folded, `journal still there after ${reads} reads`).toBe(true);
    expect((await api.ok('datastore_search', { resource_id: rid, limit: 0 })).total).toBe(5_001);
  }, 60_000);
});
