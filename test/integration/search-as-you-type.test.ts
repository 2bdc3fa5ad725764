import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ckan } from '../helpers/ckan-client';
import { recordHasWordStartingWith, wordsFrom } from '../helpers/data-words';
import { DATA, lastJsonLine, removeDir, runCli, startServer, tempDir, type ServerProcess } from '../helpers/deskstore-process';

/**
 * The search box's query (`deskstore_q`) over HTTP on every vendored data file, each indexed in
 * English (CKAN's default), and the notes file also in Italian and `simple`: for words taken from
 * the data, it finds every row `q` finds, and while the word is being typed (a prefix of it)
 * every one of those rows that holds a word starting with what was typed.
 */
const FILES: readonly [string, string[]][] = [
  ['istat-elenco-comuni-italiani.csv', []],
  ['mise-carburanti-prezzo_alle_8-2022-03-24.csv', []],
  ['dpc-covid19-ita-note.csv', []],
  ['dpc-covid19-ita-note.csv', ['--language', 'italian']],
  ['dpc-covid19-ita-note.csv', ['--language', 'simple']],
  ['country-codes.csv', []],
  ['world-cities.csv', []],
  ['dpc-covid19-ita-province.csv.gz', []],
];
/** Words tried per file; stop words of the index's language (q finds nothing for them) do not count. */
const WORDS_PER_FILE = 12;
const MEANINGFUL_WORDS = 6;

const dataDir = tempDir();
const resources: { label: string; id: string }[] = [];
let server: ServerProcess;
let api: ReturnType<typeof ckan>;

type Row = Record<string, unknown> & { _id: number };

async function rows(id: string, params: Record<string, unknown>, fields = '_id'): Promise<{ total: number; records: Row[] }> {
  const found = await api.ok('datastore_search', { resource_id: id, limit: 32000, ...(fields ? { fields } : {}), ...params });
  return { total: found.total!, records: found.records };
}

beforeAll(async () => {
  for (const [file, extra] of FILES) {
    const r = runCli(['import', join(DATA, file), '--data', dataDir, ...extra]);
    if (r.status !== 0) throw new Error(`import ${file} failed: ${r.stderr}`);
    resources.push({ label: `${file} ${extra.join(' ') || '(english)'}`, id: lastJsonLine<{ resource_id: string }>(r.stdout).resource_id });
  }
  server = await startServer({ dataDir });
  api = ckan(server.url, server.token);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  removeDir(dataDir);
});

describe('deskstore_q finds at least what q finds, on every data file', () => {
  for (const [index, [file, extra]] of FILES.entries()) {
    it(`${file} ${extra.join(' ')}`, async () => {
      const { id } = resources[index]!;
      const total = (await rows(id, { limit: 0 })).total;
      const sample = [
        ...(await rows(id, { limit: 100 }, '')).records,
        ...(await rows(id, { limit: 100, offset: Math.floor(total / 2) }, '')).records,
      ];
      const words = wordsFrom(sample, WORDS_PER_FILE);
      expect(words.length).toBe(WORDS_PER_FILE);
      let checkedPrefixRows = 0;
      let meaningful = 0;
      for (const word of words) {
        const byQ = await rows(id, { q: word }, '');
        if (byQ.total === 0) continue;
        meaningful++;
        const typed = await rows(id, { deskstore_q: word });
        expect(typed.total, word).toBeGreaterThanOrEqual(byQ.total);
        const found = new Set(typed.records.map((r) => r._id));
        expect(
          byQ.records.filter((r) => !found.has(r._id)).map((r) => r._id),
          word,
        ).toEqual([]);

        const prefix = word.slice(0, Math.max(3, word.length - 2));
        const whileTyping = new Set((await rows(id, { deskstore_q: prefix })).records.map((r) => r._id));
        const holding = byQ.records.filter((r) => recordHasWordStartingWith(r, prefix));
        checkedPrefixRows += holding.length;
        expect(
          holding.filter((r) => !whileTyping.has(r._id)).map((r) => r._id),
          `${prefix} (of ${word})`,
        ).toEqual([]);
      }
      expect(meaningful).toBeGreaterThanOrEqual(MEANINGFUL_WORDS);
      expect(checkedPrefixRows).toBeGreaterThan(0);
    });
  }
});

describe('deskstore_q errors', () => {
  it("a text too long is CKAN's validation error, with Deskstore's coded message beside it, across the engine worker", async () => {
    const response = await api.get('datastore_search', { resource_id: resources[0]!.id, deskstore_q: 'x'.repeat(1001) });
    expect(response.status).toBe(409);
    const body = response.body as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['help', 'error', 'success', 'deskstore_message']);
    // `error` holds CKAN's members only
    expect(body.error).toEqual({ deskstore_q: ['At most 1000 characters (this text has 1001)'], __type: 'Validation Error' });
    expect(body.deskstore_message).toEqual({
      code: 'search.typeahead.too_long',
      text: 'The search text is too long: at most 1000 characters (this text has 1001).',
      params: { max: 1000, length: 1001 },
    });
  });
});
