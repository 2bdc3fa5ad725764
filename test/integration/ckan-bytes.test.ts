import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { removeDir, startServer, type ServerProcess } from '../helpers/deskstore-process';

/**
 * Issue 23: the same requests give the same bytes as the real CKAN 2.10.10 — key order of the
 * envelope and the result, json.dumps's `", "` / `": "` and `\uXXXX` around the records
 * PostgreSQL writes compactly, floats as PostgreSQL prints them (`2.5e-07`, `1e+16`), `_links`
 * as Python's urlencode writes them, the create echo as CKAN leaves it. The answers were
 * recorded from the real CKAN (test/fixtures/ckan-bytes/README.md); only the site, the
 * resource ids and what CKAN 2.11 changes (docs/ckan-contract.md) are replaced.
 */
interface Case {
  name: string;
  method: 'GET' | 'POST';
  action: string;
  body?: Record<string, unknown>;
  query?: [string, string][];
  resource_id?: string;
  of?: string;
  answer: string;
}
const recorded = JSON.parse(readFileSync(join(__dirname, '../fixtures/ckan-bytes/answers.json'), 'utf8')) as {
  site: string;
  cases: Case[];
};

/** What CKAN 2.11 (which wins) adds to a 2.10 answer: datastore_create's schema defaults delete_fields. */
const as211 = (c: Case, text: string) =>
  c.action === 'datastore_create'
    ? text
        .replace('"force": true, ', '"delete_fields": false, "force": true, ')
        .replace('"result": {"fields"', '"result": {"delete_fields": false, "fields"')
    : text;

let server: ServerProcess;
beforeAll(async () => {
  server = await startServer();
  await ckan(server.url, server.token).ok('package_create', { name: 'i23-values' });
});
afterAll(async () => {
  await server.stop();
  removeDir(server.dataDir);
});

describe('the same bytes as the real CKAN 2.10.10 (issue 23)', () => {
  it('answers every recorded request byte for byte', async () => {
    const ids = new Map<string, string>(); // recorded resource id → ours
    const created = new Map<string, string>(); // case name → our resource id
    for (const c of recorded.cases) {
      const ourId = c.of ? created.get(c.of)! : undefined;
      const query = (c.query ?? []).map(([k, v]): [string, string] => [k, v === '$RID' ? ourId! : v]);
      const url = `${server.url}/api/3/action/${c.action}${query.length ? `?${new URLSearchParams(query).toString()}` : ''}`;
      const res = await fetch(url, {
        method: c.method,
        headers: { Authorization: server.token, ...(c.body ? { 'Content-Type': 'application/json' } : {}) },
        ...(c.body ? { body: JSON.stringify(c.body).replaceAll('$RID', ourId ?? '') } : {}),
      });
      const text = await res.text();
      if (c.resource_id) {
        const id = (JSON.parse(text) as { result: { resource_id: string } }).result.resource_id;
        ids.set(c.resource_id, id);
        created.set(c.name, id);
      }
      let expected = as211(c, c.answer)
        .replaceAll(recorded.site, server.url)
        .replaceAll('$RID', ourId ?? '');
      for (const [theirs, ours] of ids) expected = expected.replaceAll(theirs, ours);
      expect(text, c.name).toBe(expected);
    }
  });
});
