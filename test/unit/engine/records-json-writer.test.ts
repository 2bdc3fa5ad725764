import { describe, expect, it } from 'vitest';
import { RecordsJsonWriter, ResultTooLarge } from '../../../src/main/engine/sql/shape-results';

/** The records of a datastore_search_sql answer, written row by row into UTF-8 chunks. */
const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString('utf8');

describe('RecordsJsonWriter', () => {
  it('writes CKAN records in chunks of about a megabyte that join into the JSON', () => {
    const writer = new RecordsJsonWriter(
      [
        { name: 'n', type: 'int4' },
        { name: 't', type: 'text' },
      ],
      64 * 1024 * 1024,
    );
    for (let n = 0; n < 3000; n++) writer.add([n, `riga ${n} ${'à'.repeat(1000)}`]);
    const chunks = writer.finish();
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.slice(0, -1).every((c) => c.byteLength >= 1 << 20 && c.byteLength < 4 << 20)).toBe(true);
    const records = JSON.parse(text(chunks));
    expect(records).toHaveLength(3000);
    expect(records[2999]).toEqual({ n: 2999, t: `riga 2999 ${'à'.repeat(1000)}` });
  });

  it('writes no rows as an empty list', () => {
    expect(text(new RecordsJsonWriter([{ name: 'n', type: 'int4' }], 100).finish())).toBe('[]');
  });

  it('counts bytes as written: a letter outside ASCII is six (\\u00e8, as json.dumps writes it)', () => {
    const columns = [{ name: 't', type: 'text' }];
    const ascii = new RecordsJsonWriter(columns, 100);
    ascii.add(['a'.repeat(80)]);
    expect(text(ascii.finish())).toHaveLength(91); // [{"t": "…"}]
    const accented = new RecordsJsonWriter(columns, 100);
    // 16 characters, 96 bytes
    expect(() => {
      accented.add(['è'.repeat(16)]);
      accented.finish();
    }).toThrow(ResultTooLarge);
  });

  it('stops at the row that crosses the limit, before more are read', () => {
    const writer = new RecordsJsonWriter([{ name: 't', type: 'text' }], 1000);
    writer.add(['x'.repeat(500)]);
    expect(() => writer.add(['x'.repeat(600)])).toThrow(ResultTooLarge);
  });
});
