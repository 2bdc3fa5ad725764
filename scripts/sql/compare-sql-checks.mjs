#!/usr/bin/env node
// What datastore_search_sql refuses, and with which words, on two servers (a CKAN and a
// Deskstore), for the queries of test/fixtures/sql/sql-checks.json: CKAN checks every function
// its SQL tokenizer (sqlparse) sees against allowed_functions.txt, refuses system tables, and
// lets PostgreSQL's EXPLAIN word the rest (docs/sql-and-values.md §1).
//
//   node scripts/sql/compare-sql-checks.mjs --a URL --a-token-file FILE [--b URL --b-token-file FILE] [--dataset NAME] [--write-fixture]
//
// Each server gets the same small table (a dataset NAME, default `sql-checks`, made again); `$T`
// in a query is that table's id, and the id is written back as `$T` in answers. Prints, per
// query, the status and error of each server and whether they agree; --write-fixture records
// server A's answers in the fixture (the unit and integration tests compare with them).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixturePath = join(root, 'test/fixtures/sql/sql-checks.json');
const { values: args } = parseArgs({
  options: {
    a: { type: 'string' },
    'a-token-file': { type: 'string' },
    b: { type: 'string' },
    'b-token-file': { type: 'string' },
    dataset: { type: 'string', default: 'sql-checks' },
    'write-fixture': { type: 'boolean', default: false },
  },
});
if (!args.a || !args['a-token-file']) {
  console.error('usage: compare-sql-checks.mjs --a URL --a-token-file FILE [--b URL --b-token-file FILE] [--write-fixture]');
  process.exit(2);
}
const fixture = JSON.parse(readFileSync(fixturePath, 'utf8'));

async function call(base, token, action, body) {
  const res = await fetch(`${base.replace(/\/$/, '')}/api/3/action/${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function prepare(base, tokenFile) {
  const token = readFileSync(tokenFile, 'utf8').trim();
  for (const action of ['dataset_purge', 'package_delete']) await call(base, token, action, { id: args.dataset });
  const pkg = await call(base, token, 'package_create', { name: args.dataset });
  if (!pkg.body.success) throw new Error(`${base}: package_create ${JSON.stringify(pkg.body)}`);
  const created = await call(base, token, 'datastore_create', {
    resource: { package_id: pkg.body.result.id, name: 'checks' },
    fields: fixture.table.fields,
    records: fixture.table.records,
  });
  if (!created.body.success) throw new Error(`${base}: datastore_create ${JSON.stringify(created.body)}`);
  const id = created.body.result.resource_id;
  return async (sql) => {
    const r = await call(base, '', 'datastore_search_sql', { sql: sql.replaceAll('$T', id) });
    const strip = (v) => JSON.parse(JSON.stringify(v).replaceAll(id, '$T'));
    if (r.body.success) return { status: r.status, records: strip(r.body.result.records) };
    const { __type, ...error } = r.body.error;
    return {
      status: r.status,
      type: __type,
      error: strip(error.message !== undefined ? { message: error.message } : { query: error.query }),
    };
  };
}

const a = await prepare(args.a, args['a-token-file']);
const b = args.b ? await prepare(args.b, args['b-token-file']) : null;
let agree = 0;
for (const check of fixture.checks) {
  const left = await a(check.sql);
  if (args['write-fixture']) check.ckan = left;
  if (!b) {
    console.log(`${left.status} ${JSON.stringify(left.error ?? left.records).slice(0, 120)}  ${check.sql}`);
    continue;
  }
  const right = await b(check.sql);
  const same = JSON.stringify(left) === JSON.stringify(right);
  if (same) agree++;
  console.log(`${same ? 'same' : 'DIFF'}  ${check.sql}`);
  if (!same) console.log(`   a: ${JSON.stringify(left).slice(0, 300)}\n   b: ${JSON.stringify(right).slice(0, 300)}`);
}
if (b) console.log(`${agree} of ${fixture.checks.length} queries answered alike`);
if (args['write-fixture']) {
  fixture.recorded = { server: args.a, date: new Date().toISOString().slice(0, 10) };
  writeFileSync(fixturePath, `${JSON.stringify(fixture, null, 1)}\n`);
  console.log(`wrote ${fixturePath}`);
}
