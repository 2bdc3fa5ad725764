import { describe, expect, it } from 'vitest';
import { compareUtf8Order } from '../../../src/main/util/utf8-order';

describe('strings in UTF-8 byte order without encoding them', () => {
  it('agrees with comparing the UTF-8 bytes, where JavaScript\'s own order does not', () => {
    const words = ['', 'a', 'ab', 'b', 'Z', 'é', 'e\u0301', '\uffff', '\ue000', '𝒳', '😀', '東京', 'città', 'citta', 'ß', 'ﬀ', 'a😀', 'a\uffff'];
    const sign = (n: number): number => Math.sign(n);
    for (const a of words) {
      for (const b of words) {
        expect(sign(compareUtf8Order(a, b)), `${a} vs ${b}`).toBe(sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }
    }
    // The case it exists for: U+FFFF sorts after '😀' in UTF-16 units, before it in bytes.
    expect('\uffff' > '😀').toBe(true);
    expect(compareUtf8Order('\uffff', '😀')).toBeLessThan(0);
  });
});
