#!/usr/bin/env node
// How a CKAN DataStore sorts text, compared with another server, or written down as the unit
// tests' fixture. Text order on CKAN is PostgreSQL's collation (`en_US.UTF-8` on production
// sites), which Deskstore reproduces (src/main/engine/collation/glibc-collation.ts).
//
//   node scripts/collation/compare-text-order.mjs --ckan URL --token-file FILE [--dataset NAME]
//        [--against URL --against-token-file FILE] [--write-fixture]
//
// It puts the same text values in one DataStore table on each server (a dataset NAME, default
// `collation-check`, with a datastore-only resource, made again on every run), reads each set
// back with `datastore_search` sorted by the value (pages of 32000), and
// - with --against: prints, per set, how many positions differ and how many neighbours are
//   swapped between the two servers, with the first swaps;
// - with --write-fixture: writes test/fixtures/collation/en-us-order.json: small sets in the
//   CKAN server's order, and a SHA-256 of the order of each large set.
// The sets: every distinct `name` of world-cities.csv and `Denominazione (Italiana e straniera)`
// of the ISTAT list of comuni (both vendored in test/fixtures/data), hand-picked names that show
// each rule, and strings made at random from letters, digits, punctuation, accents, other
// scripts and characters the collation does not define (seeded, so every run makes the same).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import Papa from 'papaparse';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const { values: args } = parseArgs({
  options: {
    ckan: { type: 'string' },
    'token-file': { type: 'string' },
    dataset: { type: 'string', default: 'collation-check' },
    against: { type: 'string' },
    'against-token-file': { type: 'string' },
    'write-fixture': { type: 'boolean', default: false },
    random: { type: 'string', default: '3000' },
  },
});
if (!args.ckan || !args['token-file']) {
  console.error('usage: compare-text-order.mjs --ckan URL --token-file FILE [--against URL --against-token-file FILE] [--write-fixture]');
  process.exit(2);
}

const data = (name) => gunzipSync(readFileSync(join(root, 'test/fixtures/data', `${name}.gz`)));
const column = (text, delimiter, header) => {
  const rows = Papa.parse(text, { delimiter }).data;
  const at = rows[0].indexOf(header);
  if (at < 0) throw new Error(`no column ${header}`);
  return [...new Set(rows.slice(1).map((r) => r[at]).filter((v) => typeof v === 'string' && v !== ''))];
};

/** Names that show each rule of the collation (docs/sql-and-values.md, "Text order"). */
const PICKED = [
  '6th', 'ábc', 'àbc', 'abc', 'Abc', 'ABC', 'abd', "'Akra", 'Zed', 'z', '  double', ' double', 'double', '(x)', 'x', '-dash', 'dash',
  'æ', 'ae', 'Æble', 'aeble', 'ø', 'o', 'Øresund', 'Oresund', 'ł', 'l', 'Łódź', 'Lodz', 'ß', 'ss', 'Straße', 'Strasse', 'Strase',
  'cote', 'côte', 'coté', 'côté', 'Co-op', 'coop', 'co op', 'Coop', 'co-op', '11', '1-1', '11a', '1-1a', '1a', 'a1', 'a-1', 'a 1',
  '10', '9', '100', '1.5', '1,5', '15', 'Forlì', 'Forli', 'forli', 'FORLÌ', "Sant'Angelo", 'Santangelo', 'Sant Angelo', 'San Angelo',
  'Bolzano/Bozen', 'Bolzano', 'Bolzano-Bozen', 'Duino Aurisina-Devin Nabrežina', 'San Floriano del Collio-Števerjan', 'Steverjan',
  'Œuvre', 'oeuvre', 'þorn', 'thorn', 'ð', 'd', 'ǅ', 'dž', 'ĳ', 'ij', 'ﬁ', 'fi', '①', '1', '²', '2', '½', 'Ａ', 'A', 'a', 'ª',
  '한국', '漢字', '字', '日本', 'Москва', 'Moskva', 'Αθήνα', 'Athina', 'القاهرة', 'עברית', 'ไทย', 'เก', 'กเ', 'l·l', 'ŀl', 'L·L',
  '😀', '😀a', 'a😀', '', ' ', '-', "'", '.', '_', 'a_b', 'a.b', 'a b', 'ab', 'a\tb', 'a\nb', 'a\u00a0b', 'a\u200bb', 'e\u0301', 'é',
];

function randomStrings(n) {
  const alphabet = [...'aAbBzZ0159 ', "'", '-', '(', ')', '.', ',', '_', '/', '&', '’', '`', '"', ...'áàâäãåéèçñÁÉ', ...'æøłßœþðŠžÆØŁ',
    ...'αβΩжЖ', '漢', '字', '㐀', '한', '😀', 'เ', 'ก', 'l·', 'ŀ', '\u00a0', '\u200b', 'e\u0301', '①', 'Ａ', '²', '\u0378', '𝐀', 'ǅ', 'ĳ', '½'];
  let seed = 20261127;
  const rnd = (k) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % k;
  };
  const out = new Set();
  while (out.size < n) {
    let s = '';
    for (let i = 1 + rnd(7); i > 0; i--) s += alphabet[rnd(alphabet.length)];
    out.add(s);
  }
  return [...out];
}

const sets = {
  picked: [...new Set(PICKED)].filter((v) => v !== ''),
  random: randomStrings(Number(args.random)),
  'world-cities name': column(data('world-cities.csv').toString('utf8'), ',', 'name'),
  'comuni Denominazione': column(iconv.decode(data('istat-elenco-comuni-italiani.csv'), 'win1252'), ';', 'Denominazione (Italiana e straniera)'),
};

async function call(base, token, action, body) {
  const res = await fetch(`${base.replace(/\/$/, '')}/api/3/action/${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: token },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!json.success) throw new Error(`${base} ${action}: ${res.status} ${JSON.stringify(json.error)}`);
  return json.result;
}

/** A fresh table holding every set, on one server; answers a function reading a set in its order. */
async function load(base, tokenFile) {
  const token = readFileSync(tokenFile, 'utf8').trim();
  try {
    await call(base, token, 'dataset_purge', { id: args.dataset });
  } catch {
    try {
      await call(base, token, 'package_delete', { id: args.dataset });
    } catch {
      /* not there yet */
    }
  }
  const pkg = await call(base, token, 'package_create', { name: args.dataset, title: 'Text order check' });
  const created = await call(base, token, 'datastore_create', {
    resource: { package_id: pkg.id, name: 'values' },
    fields: [{ id: 'set', type: 'text' }, { id: 'value', type: 'text' }],
  });
  const resourceId = created.resource_id;
  const rows = Object.entries(sets).flatMap(([set, values]) => values.map((value) => ({ set, value })));
  for (let i = 0; i < rows.length; i += 5000) {
    await call(base, token, 'datastore_upsert', { resource_id: resourceId, method: 'insert', records: rows.slice(i, i + 5000), force: true });
  }
  return async (set) => {
    const out = [];
    for (;;) {
      const page = await call(base, token, 'datastore_search', { resource_id: resourceId, filters: { set }, sort: 'value', fields: ['value'], limit: 32000, offset: out.length, records_format: 'lists' });
      out.push(...page.records.map((r) => r[0]));
      if (page.records.length < 32000) return out;
    }
  };
}

const sha256 = (list) => createHash('sha256').update(list.join('\n')).digest('hex');

const ckan = await load(args.ckan, args['token-file']);
const against = args.against ? await load(args.against, args['against-token-file']) : null;
const fixture = { source: `${args.ckan}, datastore_search sorted by value`, generated: new Date().toISOString().slice(0, 10), ordered: {}, sha256: {} };
for (const [set, values] of Object.entries(sets)) {
  const expected = await ckan(set);
  if (expected.length !== values.length) throw new Error(`${set}: ${expected.length} rows back of ${values.length}`);
  if (values.length <= 5000) fixture.ordered[set] = expected;
  else fixture.sha256[set] = { count: values.length, sha256: sha256(expected) };
  if (!against) continue;
  const actual = await against(set);
  const rank = new Map(expected.map((v, i) => [v, i]));
  let positions = 0;
  const swaps = [];
  for (let i = 0; i < expected.length; i++) if (actual[i] !== expected[i]) positions++;
  for (let i = 1; i < actual.length; i++) if (rank.get(actual[i - 1]) > rank.get(actual[i])) swaps.push([actual[i - 1], actual[i]]);
  console.log(`${set}: ${values.length} values, ${positions} positions differ, ${swaps.length} neighbours swapped`);
  for (const [a, b] of swaps.slice(0, 5)) console.log(`   ${JSON.stringify(a)} before ${JSON.stringify(b)}`);
}
if (args['write-fixture']) {
  const file = join(root, 'test/fixtures/collation/en-us-order.json');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`wrote ${file}`);
}
