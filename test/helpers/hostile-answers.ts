/**
 * Answers a hostile portal gives (issue 21), for the fake portal (fake-portal.ts): each writes
 * only while the client reads, stops when it goes away, and counts what it wrote in `sent`.
 */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

interface Sent {
  bytes: number;
}

/** Writes `next()` chunks while the client keeps reading; stops at null or when it goes away. */
function stream(res: ServerResponse, sent: Sent, next: () => Buffer | null): void {
  let gone = false;
  res.on('close', () => (gone = true));
  const pump = () => {
    while (!gone) {
      const chunk = next();
      if (chunk === null) return void res.end();
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

/** 16 MiB of JSON whitespace in one gzip member (~16 KiB); members in a row are one stream to gunzip. */
const MEMBER = gzipSync(Buffer.alloc(16 * 1024 * 1024, ' '), { level: 9 });

/** A gzip body of ~2 MiB that inflates to 2 GiB: `{"success": true, "result": ` then whitespace for ever. */
export function bomb(res: ServerResponse, sent: Sent): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  let members = 128;
  let first = true;
  stream(res, sent, () => {
    if (first) {
      first = false;
      return gzipSync('{"success": true, "result": {"id": "x", "padding": ');
    }
    return members-- > 0 ? MEMBER : null;
  });
}

/** A plain answer of 40 MB: one long string in a well-formed envelope. */
export function oversized(res: ServerResponse): void {
  const body = Buffer.from(`{"success": true, "result": {"id": "x", "padding": "${'x'.repeat(40 * 1024 * 1024)}"}}`);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
}

/** Headers at once, then one byte every 200 ms, for as long as the client waits. */
export function trickle(res: ServerResponse, sent: Sent): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const text = Buffer.from('{"fields": [], "records": [' + ' '.repeat(1_000_000));
  let at = 0;
  const timer = setInterval(() => {
    if (at >= text.length) return;
    sent.bytes++;
    res.write(text.subarray(at, ++at));
  }, 200);
  res.on('close', () => clearInterval(timer));
}

/** A JSON dump whose records never end, whatever `total` said. */
export function endlessDump(res: ServerResponse, sent: Sent): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let id = 0;
  const head = Buffer.from(
    '{"fields": [{"id": "_id", "type": "int"}, {"id": "name", "type": "text"}, {"id": "n", "type": "int4"}], "records": [',
  );
  let first = true;
  stream(res, sent, () => {
    if (first) {
      first = false;
      return head;
    }
    const rows: string[] = [];
    for (let i = 0; i < 1000; i++) rows.push(`${id === 0 ? '' : ','}\n[${++id}, "riga senza fine ${id}", ${id}]`);
    return Buffer.from(rows.join(''));
  });
}

/** A datastore_search answer whose records never end, whatever `total` said. */
export function endlessPageBody(res: ServerResponse, sent: Sent): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  let id = 0;
  let first = true;
  stream(res, sent, () => {
    if (first) {
      first = false;
      return Buffer.from('{"success": true, "result": {"records": [');
    }
    const rows: string[] = [];
    for (let i = 0; i < 1000; i++) rows.push(`${id === 0 ? '' : ','}\n[${++id}, "riga senza fine ${id}", ${id}]`);
    return Buffer.from(rows.join(''));
  });
}

/**
 * datastore_search with a total of 3 and pages of 1,000 rows that always have a next page;
 * `params` from the query (GET) or the JSON body (a mirror's POSTed pages).
 */
export function endlessPage(
  res: ServerResponse,
  params: Record<string, unknown>,
  pathname: string,
  fields: readonly { id: string; type: string }[],
): void {
  const limit = Number(params.limit ?? 100);
  const offset = Number(params.offset ?? 0);
  const desc = params.sort === '_id desc';
  const count = limit === 0 ? 0 : desc ? 1 : 1000;
  const records = Array.from({ length: count }, (_, i) => {
    const id = desc ? 3 : offset + i + 1;
    return desc ? { _id: id } : { _id: id, name: `pagina ${id}`, n: id };
  });
  const next = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) next.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  next.set('offset', String(offset + count));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      success: true,
      result: { fields, total: 3, records, _links: { start: pathname, next: `${pathname}?${next.toString()}` } },
    }),
  );
}
