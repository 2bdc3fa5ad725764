import { readFileSync, readdirSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';
import { lcg } from '../helpers/random';

/**
 * SIGKILL at random moments: during a stream of upserts and deletes, during checkpoints, during
 * imports (then every kind of query must answer), and during datastore_create and catalogue
 * changes. After each restart, every acknowledged write must be there, the one write in flight
 * must be there entirely or not at all, and every resource must still answer. And a journal
 * damaged on disk is replayed as far as it is whole, loudly (issue 8).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

type Model = Map<string, number>;
type Write = { kind: 'upsert'; records: { k: string; v: number }[] } | { kind: 'delete'; keys: string[] };

function apply(model: Model, w: Write): Model {
  const next = new Map(model);
  if (w.kind === 'upsert') for (const r of w.records) next.set(r.k, r.v);
  else for (const k of w.keys) next.delete(k);
  return next;
}

async function readAll(api: ReturnType<typeof ckan>, rid: string): Promise<Model> {
  const r = await api.ok('datastore_search', { resource_id: rid, limit: 32000, fields: 'k,v' });
  return new Map((r.records as { k: string; v: number }[]).map((x) => [x.k, x.v]));
}

const same = (a: Model, b: Model) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

describe('crash recovery (SIGKILL)', () => {
  it('keeps every acknowledged write and never half-applies one, through repeated kills', async () => {
    const random = lcg(4242);
    const dataDir = tempDir();
    dirs.push(dataDir);
    let server: ServerProcess = await startServer({ dataDir });
    let api = ckan(server.url, server.token);
    const pkg = await api.ok('package_create', { name: 'crash' });
    // A table big enough that a checkpoint takes a moment, so kills can land inside one.
    const seed = Array.from({ length: 20_000 }, (_, i) => ({ k: `seed${i}`, v: i, pad: `riga di riempimento numero ${i}` }));
    const rid = (
      await api.ok('datastore_create', {
        resource: { package_id: pkg.id },
        fields: [
          { id: 'k', type: 'text' },
          { id: 'v', type: 'int' },
          { id: 'pad', type: 'text' },
        ],
        primary_key: 'k',
        records: seed,
      })
    ).resource_id;
    let model: Model = new Map(seed.map((r) => [r.k, r.v]));
    let acknowledged = 0;
    let ambiguous = 0;

    for (let round = 0; round < 10; round++) {
      let inFlight: Write | null = null;
      let stop = false;
      const withCheckpoint = round % 3 === 2;
      // The kill comes after a drawn number of acknowledged writes (not after a sleep, so a slow
      // machine does the same work); in checkpoint rounds, as soon as the checkpoint starts
      // writing its files, so it lands inside the checkpoint.
      const killAfter = 2 + Math.floor(random() * 30);
      let ackedThisRound = 0;
      let killNow!: () => void;
      const killMoment = new Promise<void>((resolve) => {
        killNow = resolve;
      });
      const writer = (async () => {
        while (!stop) {
          const w: Write =
            random() < 0.75
              ? {
                  kind: 'upsert',
                  records: Array.from({ length: 5 }, () => ({ k: `k${Math.floor(random() * 300)}`, v: Math.floor(random() * 1e6) })),
                }
              : { kind: 'delete', keys: Array.from({ length: 3 }, () => `k${Math.floor(random() * 300)}`) };
          // Several records of one request share a key: the last one wins, as in CKAN.
          inFlight = w;
          try {
            const res =
              w.kind === 'upsert'
                ? await api.post('datastore_upsert', { resource_id: rid, records: w.records })
                : await api.post('datastore_records_delete', { resource_id: rid, filters: { k: w.keys } });
            if (res.status !== 200) throw new Error(`write refused: ${res.text}`);
            model = apply(model, w);
            acknowledged++;
            inFlight = null;
            if (++ackedThisRound === killAfter && !withCheckpoint) killNow();
          } catch (err) {
            if ((err as Error).message.startsWith('write refused')) throw err;
            return; // the server died under this request
          }
        }
      })();
      void writer.finally(killNow); // a writer that stopped early must not leave the round waiting
      let watcher: FSWatcher | null = null;
      if (withCheckpoint) {
        watcher = watch(join(dataDir, 'resources', rid), (_event, name) => {
          if (name?.endsWith('.tmp')) killNow();
        });
        void api.post('deskstore_checkpoint', { resource_id: rid }).then(killNow, () => {});
      }
      await killMoment;
      watcher?.close();
      await server.stop('SIGKILL');
      stop = true;
      await writer;

      server = await startServer({ dataDir });
      api = ckan(server.url, server.token);
      const actual = await readAll(api, rid);
      if (inFlight && !same(actual, model)) {
        // The request in flight may have been journalled before the kill: then all of it.
        const withIt = apply(model, inFlight);
        expect(same(actual, withIt), `round ${round}: state is neither before nor after the in-flight write`).toBe(true);
        model = withIt;
        ambiguous++;
      } else {
        expect(same(actual, model), `round ${round}: acknowledged writes missing`).toBe(true);
      }
    }
    expect(acknowledged).toBeGreaterThanOrEqual(2 * 7); // at least 2 per write-only round
    // New rows never reuse an _id, across all those restarts.
    const maxBefore = (await api.ok('datastore_search', { resource_id: rid, sort: '_id desc', limit: 1 })).records[0]._id;
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ k: 'after', v: 1 }] });
    const newest = (await api.ok('datastore_search', { resource_id: rid, filters: { k: 'after' } })).records[0]._id;
    expect(newest).toBeGreaterThan(maxBefore);
    console.log(`crash test: ${acknowledged} acknowledged writes over 10 kills, ${ambiguous} in-flight writes found applied`);
    await server.stop();
  }, 240_000);

  it('shows the previous version or the new one, never a half, when an import is killed', async (ctx) => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const folder = tempDir('deskstore-import-folder-');
    ctx.onTestFinished(() => removeDir(folder));
    const file = join(folder, 'import.csv');
    writeFileSync(file, `n;testo\n${Array.from({ length: 120_000 }, (_, i) => `${i};riga numero ${i}`).join('\n')}\n`);
    const args = ['--import-folder', folder];
    let server = await startServer({ dataDir, args });
    let api = ckan(server.url, server.token);
    const pkg = await api.ok('package_create', { name: 'import-crash' });
    const rid = (await api.ok('datastore_create', { resource: { package_id: pkg.id }, records: [{ n: 1, testo: 'prima versione' }] }))
      .resource_id;
    const versions = new Set<number>();
    // Each round kills the server once the import reports a given phase (polled as scripts do),
    // so every phase is hit whatever the machine's speed; a phase too short to be seen is
    // passed by, and the kill lands later (at worst after the import completed).
    const order = ['queued', 'downloading', 'reading', 'typing', 'indexing', 'writing', 'storing', 'done'];
    for (const phase of ['downloading', 'reading', 'typing', 'indexing', 'writing', 'storing', 'done']) {
      await api.ok('resource_patch', { id: rid, url: `file://${file}` });
      while (order.indexOf((await api.ok('xloader_status', { resource_id: rid })).phase) < order.indexOf(phase)) {
        /* poll */
      }
      await server.stop('SIGKILL');
      server = await startServer({ dataDir, args });
      api = ckan(server.url, server.token);
      const total = (await api.ok('datastore_search', { resource_id: rid, limit: 0 })).total!;
      expect([1, 120_000]).toContain(total);
      versions.add(total);
      const probe = await api.ok('datastore_search', { resource_id: rid, q: 'riga', limit: 1 });
      expect(probe.total).toBe(total === 1 ? 0 : 120_000);
      await expectEveryKindOfQuery(server, rid, total);
      // Leftovers of the killed import are gone: only the files of the versions kept remain
      // (the published one and the earlier ones, issue 25), one generation each.
      const files = readdirSync(join(dataDir, 'resources', rid));
      expect(
        files.every((f) => /^\d+\.(columns|sqlite|journal)$/.test(f)),
        files.join(','),
      ).toBe(true);
      const kept = (await api.ok('deskstore_versions', { resource_id: rid })).versions;
      expect(kept[0]?.rows).toBe(total);
      expect(new Set(files.map((f) => f.split('.')[0])).size, files.join(',')).toBe(kept.length);
    }
    console.log(`import crash test: versions seen after kills: ${[...versions].join(', ')}`);
    expect(versions).toContain(120_000); // the last kill came after the import completed
    // And the resource takes a new import and writes after all those kills.
    await api.ok('resource_patch', { id: rid, url: `file://${file}` });
    while (!['complete', 'error'].includes((await api.ok('xloader_status', { resource_id: rid })).status)) {
      /* poll */
    }
    expect((await api.ok('xloader_status', { resource_id: rid })).status).toBe('complete');
    // force: a loaded file makes the table read-only for the DataStore API, as on CKAN.
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', force: true, records: [{ n: -1, testo: 'dopo' }] });
    expect((await api.ok('datastore_search', { resource_id: rid, limit: 0 })).total).toBe(120_001);
    await server.stop();
  }, 240_000);

  it('keeps every acknowledged datastore_create and catalogue change, and no half of the one in flight', async () => {
    const random = lcg(2024);
    const dataDir = tempDir();
    dirs.push(dataDir);
    let server = await startServer({ dataDir });
    let api = ckan(server.url, server.token);
    let model: Catalogue = new Map();
    let acknowledged = 0;
    let ambiguous = 0;
    let serial = 0;
    for (let round = 0; round < 6; round++) {
      let inFlight: CatalogueOp | null = null;
      let stop = false;
      const writer = (async () => {
        while (!stop) {
          const op = nextCatalogueOp(model, random, serial++);
          inFlight = op;
          try {
            const res = await sendCatalogueOp(api, op);
            if (res.status !== 200) throw new Error(`write refused: ${op.kind} ${res.text.slice(0, 300)}`);
            model = applyCatalogueOp(model, op);
            acknowledged++;
            inFlight = null;
          } catch (err) {
            if ((err as Error).message.startsWith('write refused')) throw err;
            return; // the server died under this request
          }
        }
      })();
      // Each change is fsynced (catalogue, table files), which takes a while on a busy disk.
      await new Promise((r) => setTimeout(r, 1_000 + random() * 2_000));
      await server.stop('SIGKILL');
      stop = true;
      await writer;

      server = await startServer({ dataDir });
      api = ckan(server.url, server.token);
      const actual = await readCatalogue(api);
      const op = inFlight as CatalogueOp | null;
      if (op && !sameCatalogue(actual, model)) {
        const withIt = applyCatalogueOp(model, op);
        expect(sameCatalogue(actual, withIt), `round ${round}: neither before nor after ${op.kind}: ${JSON.stringify([...actual])}`).toBe(
          true,
        );
        model = withIt;
        ambiguous++;
      } else {
        expect(sameCatalogue(actual, model), `round ${round}: acknowledged changes missing`).toBe(true);
      }
      // Nothing on disk that the catalogue does not name (crash leftovers are cleaned at start).
      const named = new Set<string>();
      for (const name of actual.keys()) for (const r of (await api.ok('package_show', { id: name })).resources) named.add(r.id);
      expect(readdirSync(join(dataDir, 'resources')).filter((f) => !named.has(f))).toEqual([]);
    }
    expect(acknowledged).toBeGreaterThanOrEqual(6);
    console.log(`catalogue crash test: ${acknowledged} acknowledged changes over 6 kills, ${ambiguous} in-flight changes found applied`);
    await server.stop();
  }, 240_000);

  it('replays a journal damaged on disk as far as it is whole, says so, and keeps the rest aside', async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    let server = await startServer({ dataDir });
    let api = ckan(server.url, server.token);
    const pkg = await api.ok('package_create', { name: 'damaged-journal' });
    const rid = (
      await api.ok('datastore_create', {
        resource: { package_id: pkg.id },
        primary_key: 'k',
        fields: [
          { id: 'k', type: 'int' },
          { id: 'v', type: 'text' },
        ],
        records: [{ k: 0, v: 'zero' }],
      })
    ).resource_id;
    for (let k = 1; k <= 5; k++) await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ k, v: `riga ${k}` }] });
    await server.stop('SIGKILL'); // no checkpoint: the five writes live in the journal only
    const dir = join(dataDir, 'resources', rid);
    const journal = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.journal'))!,
    );
    const frames = frameOffsets(readFileSync(journal));
    expect(frames).toHaveLength(5);

    // One flipped bit in the second entry's length: all five writes are still there.
    flipBit(journal, frames[1]! + 2, 5);
    server = await startServer({ dataDir });
    api = ckan(server.url, server.token);
    const keys = async () =>
      (await api.ok('datastore_search', { resource_id: rid, sort: 'k', limit: 100 })).records.map((r: { k: number }) => r.k);
    expect(await keys()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(server.stderr()).toMatch(/journal .* had 1 damaged entry header\(s\).*all 5 acknowledged writes were recovered/);
    await server.stop('SIGKILL');

    // One flipped bit inside the third entry's content: the two before it are replayed, the
    // damage is reported, and the new writes follow; the rest is kept in the copy.
    flipBit(journal, frameOffsets(readFileSync(journal))[2]! + 20, 2);
    server = await startServer({ dataDir });
    api = ckan(server.url, server.token);
    expect(await keys()).toEqual([0, 1, 2]);
    expect(server.stderr()).toMatch(
      /DAMAGED at byte \d+: the 2 writes before it were replayed, the damaged write and the 2 acknowledged writes after it were NOT replayed; the damaged journal is kept unchanged as /,
    );
    const copies = readdirSync(dir).filter((f) => f.includes('.journal.damaged-'));
    expect(copies).toHaveLength(2);
    await api.ok('datastore_upsert', { resource_id: rid, method: 'insert', records: [{ k: 9, v: 'dopo' }] });
    await server.stop('SIGKILL');
    server = await startServer({ dataDir });
    api = ckan(server.url, server.token);
    expect(await keys()).toEqual([0, 1, 2, 9]);
    expect(server.stderr()).not.toMatch(/DAMAGED/);
    await api.ok('deskstore_checkpoint', { resource_id: rid });
    expect(readdirSync(dir).filter((f) => f.includes('.journal.damaged-'))).toEqual(copies); // kept through checkpoints
    await server.stop();
  }, 120_000);
});

/** Byte offsets of the frames of a journal (u32 length, u32 CRC, payload). */
function frameOffsets(data: Buffer): number[] {
  const offsets: number[] = [];
  for (let at = 0; at + 8 <= data.length; at += 8 + data.readUInt32LE(at)) offsets.push(at);
  return offsets;
}

function flipBit(path: string, byte: number, bit: number): void {
  const data = readFileSync(path);
  data[byte] = data[byte]! ^ (1 << bit);
  writeFileSync(path, data);
}

/** After a crash in the middle of an import, every kind of query still answers. */
async function expectEveryKindOfQuery(server: ServerProcess, rid: string, total: number): Promise<void> {
  const api = ckan(server.url, server.token);
  const first = await api.ok('datastore_search', { resource_id: rid, filters: { n: total === 1 ? 1 : 7 }, sort: 'testo desc', limit: 5 });
  expect(first.total).toBe(1);
  expect((await api.ok('datastore_search_sql', { sql: `SELECT count(*) AS c FROM "${rid}"` })).records[0].c).toBe(total);
  expect((await api.ok('datastore_info', { id: rid })).meta.count).toBe(total);
  expect((await api.ok('deskstore_facets', { resource_id: rid, field: 'testo', limit: 3 })).values.length).toBeGreaterThan(0);
  const dump = await fetch(`${server.url}/datastore/dump/${rid}?limit=2`);
  expect([dump.status, (await dump.text()).split(/\r?\n/)[0]]).toEqual([200, '_id,n,testo']);
}

/** The catalogue as a script sees it: dataset name → title and its tables' names → row counts. */
type Catalogue = Map<string, { title: string; tables: Map<string, number> }>;
type CatalogueOp =
  | { kind: 'package_create'; name: string }
  | { kind: 'package_patch'; name: string; title: string }
  | { kind: 'package_delete'; name: string }
  | { kind: 'datastore_create'; pkg: string; table: string; rows: number }
  | { kind: 'resource_delete'; pkg: string; table: string };

function nextCatalogueOp(model: Catalogue, random: () => number, n: number): CatalogueOp {
  const names = [...model.keys()];
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const roll = random();
  if (names.length === 0 || roll < 0.2) return { kind: 'package_create', name: `pacchetto-${n}` };
  const name = pick(names);
  const tables = [...model.get(name)!.tables.keys()];
  if (roll < 0.3) return { kind: 'package_patch', name, title: `Titolo ${n}` };
  if (roll < 0.37 && names.length > 1) return { kind: 'package_delete', name };
  if (roll < 0.5 && tables.length > 0) return { kind: 'resource_delete', pkg: name, table: pick(tables) };
  return { kind: 'datastore_create', pkg: name, table: `tabella-${n}`, rows: 1 + Math.floor(random() * 100) };
}

async function sendCatalogueOp(api: ReturnType<typeof ckan>, op: CatalogueOp) {
  switch (op.kind) {
    case 'package_create':
      return api.post('package_create', { name: op.name, title: op.name });
    case 'package_patch':
      return api.post('package_patch', { id: op.name, title: op.title });
    case 'package_delete':
      return api.post('package_delete', { id: op.name });
    case 'datastore_create':
      return api.post('datastore_create', {
        resource: { package_id: op.pkg, name: op.table },
        fields: [
          { id: 'n', type: 'int' },
          { id: 'testo', type: 'text' },
        ],
        records: Array.from({ length: op.rows }, (_, i) => ({ n: i, testo: `riga ${i} di ${op.table}` })),
      });
    case 'resource_delete': {
      const pkg = (await api.ok('package_show', { id: op.pkg })).resources;
      return api.post('resource_delete', { id: pkg.find((r) => r.name === op.table)!.id });
    }
  }
}

function applyCatalogueOp(model: Catalogue, op: CatalogueOp): Catalogue {
  const next: Catalogue = new Map([...model].map(([k, v]) => [k, { title: v.title, tables: new Map(v.tables) }]));
  switch (op.kind) {
    case 'package_create':
      next.set(op.name, { title: op.name, tables: new Map() });
      break;
    case 'package_patch':
      next.get(op.name)!.title = op.title;
      break;
    case 'package_delete':
      next.delete(op.name);
      break;
    case 'datastore_create':
      next.get(op.pkg)!.tables.set(op.table, op.rows);
      break;
    case 'resource_delete':
      next.get(op.pkg)!.tables.delete(op.table);
      break;
  }
  return next;
}

async function readCatalogue(api: ReturnType<typeof ckan>): Promise<Catalogue> {
  const out: Catalogue = new Map();
  for (const name of await api.ok('package_list')) {
    const pkg = await api.ok('package_show', { id: name });
    const tables = new Map<string, number>();
    for (const r of pkg.resources) {
      // A resource without its table would be half of a datastore_create: counted as -1, never equal.
      tables.set(r.name ?? '', r.datastore_active ? (await api.ok('datastore_search', { resource_id: r.id, limit: 0 })).total! : -1);
    }
    out.set(name, { title: pkg.title ?? '', tables });
  }
  return out;
}

function sameCatalogue(a: Catalogue, b: Catalogue): boolean {
  if (a.size !== b.size) return false;
  for (const [name, x] of a) {
    const y = b.get(name);
    if (!y || x.title !== y.title || x.tables.size !== y.tables.size) return false;
    for (const [table, rows] of x.tables) if (y.tables.get(table) !== rows) return false;
  }
  return true;
}
