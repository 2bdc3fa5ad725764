/**
 * Push does not change a value either (issue 23): a table holding numeric scales, a 39-digit
 * numeric, int8 past 2^53, timestamps with fractions, whole floats and JSON cells with `100.0`
 * and `""` reads back from the portal (a second Deskstore) byte for byte as it reads here, in
 * datastore_search and in datastore_search_sql. Before, push sent what JSON.parse made of the
 * local answer: `310.00` went as `310`, and timestamps lost their fractions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../../helpers/ckan-client';
import { lastJsonLine, removeDir, runCliAsync, startServer, tempDir, type ServerProcess } from '../../helpers/deskstore-process';
import { skipSpace, valueEnd } from '../../../src/main/util/json-source';
import type { PushOutcome } from '../../../src/shared/portal';

let portal: ServerProcess;
let dir: string;
let resourceId: string;

/** Sent as text: `310.0` must reach the server as a float literal. */
const CREATE_BODY = `{"resource": {"package_id": "valori", "name": "Valori"},
  "fields": [{"id": "n", "type": "numeric"}, {"id": "ts", "type": "timestamp"}, {"id": "big", "type": "int8"},
             {"id": "f", "type": "float8"}, {"id": "doc", "type": "json"}, {"id": "t", "type": "text"}],
  "records": [
    {"n": "310.00", "ts": "2020-01-02T03:04:05.123456", "big": 9223372036854775807, "f": 2.5e-7, "doc": {"a": 100.0, "b": ""}, "t": 310.0},
    {"n": "-12.340", "ts": "1999-12-31T23:59:59.999999", "big": -9007199254740993, "f": 1e300, "doc": "", "t": "é"},
    {"n": "123456789012345678901234567890.123456789", "ts": null, "big": null, "f": null, "doc": [1.0, 2.50], "t": null},
    {"n": 310.0, "ts": "2020-01-02 03:04:05.5", "big": 1, "f": 0.1, "doc": null, "t": ""}
  ]}`;

function recordsText(text: string): string {
  const start = skipSpace(text, text.indexOf('"records":') + '"records":'.length);
  return text.slice(start, valueEnd(text, start));
}

async function answers(server: ServerProcess, id: string): Promise<string[]> {
  const api = ckan(server.url);
  const search = await api.post('datastore_search', {
    resource_id: id,
    records_format: 'lists',
    fields: ['n', 'ts', 'big', 'f', 'doc', 't'],
  });
  const sql = await api.post('datastore_search_sql', { sql: `SELECT n, ts, big, f, doc, t FROM "${id}" ORDER BY _id` });
  return [recordsText(search.text), recordsText(sql.text)];
}

beforeAll(async () => {
  portal = await startServer();
  dir = tempDir();
  const local = await startServer({ dataDir: dir });
  try {
    const api = ckan(local.url, local.token);
    await api.ok('package_create', { name: 'valori' });
    const res = await fetch(`${local.url}/api/3/action/datastore_create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: local.token },
      body: CREATE_BODY,
    });
    const body = (await res.json()) as { success: boolean; result: { resource_id: string } };
    expect(body.success).toBe(true);
    resourceId = body.result.resource_id;
  } finally {
    await local.stop();
  }
});

afterAll(async () => {
  await portal?.stop();
  if (dir) removeDir(dir);
});

describe('push keeps every value', () => {
  it('reads back from the portal exactly as here', async () => {
    const r = await runCliAsync(['push', resourceId, '--data', dir, '--to', portal.url, `--token=${portal.token}`]);
    expect(r.status, r.stderr).toBe(0);
    const remoteId = lastJsonLine<PushOutcome>(r.stdout).resource_id;
    const local = await startServer({ dataDir: dir });
    try {
      const here = await answers(local, resourceId);
      const there = await answers(portal, remoteId);
      expect(there).toEqual(here);
      // What CKAN 2.10 stores for the same body (checked on the real one).
      expect(here[0]).toContain('[310.00,"2020-01-02T03:04:05",9223372036854775807,');
      expect(here[0]).toContain('{"a": 100.0, "b": ""},"310.0"]');
      expect(here[0]).toContain('[123456789012345678901234567890.123456789,null,null,null,[1.0, 2.5],null]');
      expect(here[0]).toContain('[310.0,"2020-01-02T03:04:05",1,0.1,null,""]');
      expect(here[1]).toContain('"ts": "2020-01-02T03:04:05.123456"');
      expect(here[1]).toContain('"ts": "1999-12-31T23:59:59.999999"');
    } finally {
      await local.stop();
    }
  });
});
