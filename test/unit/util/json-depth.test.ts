import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds, jsonTextDepthExceeds } from '../../../src/main/util/json-depth';
import { extractParams } from '../../../src/main/server/request-params';

const nested = (n: number, open: string, inner: string, close: string) => `${open.repeat(n)}${inner}${close.repeat(n)}`;

describe('JSON depth read from the text', () => {
  it('agrees with the depth of the parsed value, brackets inside strings not counted', () => {
    const texts = [
      '1',
      '"[[[[{{{{"',
      '{"a":"\\"[[[[","b":[1,[2,[3]]]}',
      nested(100, '[', '1', ']'),
      nested(101, '[', '1', ']'),
      nested(50, '{"$or":[', '{"n":"]]]}}}"}', ']}'),
      nested(51, '{"$or":[', '{"n":"\\\\"}', ']}'),
      `[${'[],'.repeat(1000)}[]]`,
    ];
    for (const text of texts)
      expect([text.slice(0, 30), jsonTextDepthExceeds(text)]).toEqual([text.slice(0, 30), jsonDepthExceeds(JSON.parse(text))]);
  });

  it('refuses a body nested a million levels deep with the depth message, not a stack overflow', () => {
    // The exact-number reader parses with a reviver, which recurses through the value: a body
    // this deep overflowed the stack inside the parse (the message depended on the thread's stack).
    const text = `{"resource_id":"x","filters":${nested(1_000_000, '[', '1', ']')}}`;
    expect(() => extractParams({ method: 'POST', sideEffectFree: true, rawQuery: '', body: { kind: 'raw', text } })).toThrow(
      'Bad request - JSON Error: Error decoding JSON data. Error: the JSON is nested more than 100 levels deep',
    );
  });
});
